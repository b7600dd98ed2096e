/**
 * View model of the Ambient screen: per namespace, its data-plane mode and what moving it to
 * ambient blocks, changes and improves (from meshdx's own figures for that namespace).
 */
import { z } from 'zod';
import { FindingSchema } from './findings';
import { LatePartsSchema } from './late';

export const AmbientGainsSchema = z.object({
  /** Workloads whose pods raced their sidecar at start (Timelines): no sidecar, no race. */
  raceWorkloads: z.array(z.string()),
  /** Workloads whose proxy stops before the app at shutdown (Timelines). */
  drainWorkloads: z.array(z.string()),
  /** Sidecar proxies that would go, and the Envoy clusters they carry today (Proxies). */
  sidecarProxies: z.number(),
  clustersCarried: z.number().nullable(),
  /** Proxies whose cluster count meshdx has measured (the rest were not scanned). */
  clustersMeasured: z.number(),
});

export const NamespaceReadinessSchema = z.object({
  namespace: z.string(),
  dataplane: z.enum(['ambient', 'none']),
  pods: z.object({ sidecar: z.number(), ambient: z.number(), none: z.number() }),
  waypoint: z.string().nullable(),
  /** migrated: ambient, no sidecar left; mid-migration: ambient label, sidecars remain;
   * blocked: an error finding; needs-work: warnings only; ready: nothing in the way. */
  status: z.enum(['migrated', 'mid-migration', 'blocked', 'needs-work', 'ready']),
  findings: z.array(FindingSchema),
  gains: AmbientGainsSchema,
});

export const AmbientViewSchema = z.object({
  generatedAt: z.string(),
  namespaces: z.array(NamespaceReadinessSchema),
  /** Kinds meshdx could not read (not installed, no RBAC), said on the page. */
  notes: z.array(z.string()),
  /** What was not read by the view's deadline, or was shown from an earlier read. */
  late: LatePartsSchema,
});

export type AmbientGains = z.infer<typeof AmbientGainsSchema>;
export type NamespaceReadiness = z.infer<typeof NamespaceReadinessSchema>;
export type AmbientView = z.infer<typeof AmbientViewSchema>;

export const ambientKeys = {
  all: ['ambient'] as const,
  view: (context: string | null) => ['ambient', context ?? ''] as const,
};
