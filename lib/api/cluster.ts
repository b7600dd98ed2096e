import { z } from 'zod';
import { LatePartsSchema } from './late';

/** The `platform` of `/version` on meshdx's archive API server (server/archive): the cluster is an archive. */
export const ARCHIVE_PLATFORM = 'istioctl-bug-report-archive';

/** What an archive context is: its file, when it was captured and how that is known, what it lacks. */
export const ArchiveInfoSchema = z.object({
  name: z.string(),
  format: z.string(),
  capturedAt: z.string().nullable(),
  capturedHow: z.string(),
  entries: z.number(),
  proxies: z.number(),
  istiods: z.number(),
  missing: z.array(z.object({ part: z.string(), reason: z.string() })),
  problems: z.array(
    z.object({ entry: z.string().nullable(), reason: z.string(), message: z.string() }),
  ),
});
export type ArchiveInfo = z.infer<typeof ArchiveInfoSchema>;

export const ClusterInfoSchema = z.object({
  /** What the header shows: the context name, or "in-cluster". */
  label: z.string(),
  source: z.enum(['kubeconfig', 'in-cluster', 'none']),
  server: z.string(),
  context: z.string().optional(),
  reachable: z.boolean(),
  version: z.string().optional(),
  istioApiVersion: z.string().nullable().optional(),
  /** Set when the context is an `istioctl bug-report` archive opened with `meshdx open`. */
  archive: ArchiveInfoSchema.optional(),
  error: z
    .object({ code: z.string(), message: z.string(), hint: z.string().optional() })
    .optional(),
  /** What the header could not read by the view's deadline. */
  late: LatePartsSchema,
});
export type ClusterInfo = z.infer<typeof ClusterInfoSchema>;

/** One kubeconfig context (or the single in-cluster one), for the header's picker. */
export const ContextEntrySchema = z.object({
  name: z.string(),
  cluster: z.string(),
  server: z.string(),
  /** The context shown when a link names none. */
  current: z.boolean(),
  /** meshdx has a runtime for it now (watching, recording history). */
  running: z.boolean(),
});

export const ContextsSchema = z.object({
  default: z.string(),
  contexts: z.array(ContextEntrySchema),
});
export type Contexts = z.infer<typeof ContextsSchema>;
