/**
 * What only meshdx keeps in a gathered archive, beside istioctl's bug-report layout: a folder
 * istioctl does not use (`bug-report/meshdx/`) with the capture's manifest, the history store's
 * pod IP intervals of the window and the failing requests recorded in it. Anything that reads
 * istioctl's archive ignores the folder; meshdx's archive reader loads it with readGatherExtras,
 * so an incident reopens with the same failures after its pods are gone.
 *
 * Files (each written by `meshdx gather`, server/gather):
 * - `manifest.json`: GatherManifest, one JSON object;
 * - `pod-intervals.jsonl`: one PodInterval per line (epoch ms times);
 * - `failures.jsonl`: one StoredFailure per line, as the store recorded it.
 */
import { z } from 'zod';
import type { PodInterval } from '../ledger/types';
import { ATTRIBUTED_STATES, FAILURE_READS, type StoredFailure } from '../incidents/failure-store';

/** The archive's folder of meshdx's own files (tar entry names start with it). */
export const GATHER_EXTRAS_DIR = 'bug-report/meshdx';
export const GATHER_MANIFEST = `${GATHER_EXTRAS_DIR}/manifest.json`;
export const GATHER_INTERVALS = `${GATHER_EXTRAS_DIR}/pod-intervals.jsonl`;
export const GATHER_FAILURES = `${GATHER_EXTRAS_DIR}/failures.jsonl`;
/** The manifest's format version: a reader refuses a newer one by name. */
export const GATHER_FORMAT_VERSION = 1;

const epochMs = z.number().int().nonnegative();
const iso = z.iso.datetime({ offset: true });
const owner = z.object({ kind: z.string(), name: z.string() }).nullable();

const PodIntervalSchema = z.object({
  ip: z.string().min(1),
  namespace: z.string().min(1),
  name: z.string().min(1),
  uid: z.string().nullable(),
  owner,
  node: z.string().nullable(),
  from: epochMs,
  fromSource: z.enum(['event', 'startTime', 'condition', 'creationTimestamp']),
  deletionStartedAt: epochMs.nullable(),
  graceEndsAt: epochMs.nullable(),
  goneAt: epochMs.nullable(),
  goneUncertain: z.boolean(),
  lastSeenAt: epochMs.nullable(),
}) satisfies z.ZodType<PodInterval>;

const StoredFailureSchema = z.object({
  id: z.number().int(),
  recordedAt: epochMs,
  raw: z.string(),
  source: z.object({
    read: z.enum(FAILURE_READS),
    proxy: z.string().min(1),
    proxyUid: z.string().nullable(),
  }),
  fields: z.object({
    time: epochMs.nullable(),
    code: z.number().int().nullable(),
    flags: z.array(z.string()),
    method: z.string().nullable(),
    authority: z.string().nullable(),
    path: z.string().nullable(),
    durationMs: z.number().nullable(),
    upstreamHost: z.string().nullable(),
    upstreamCluster: z.string().nullable(),
    downstreamRemote: z.string().nullable(),
    requestId: z.string().nullable(),
    details: z.string().nullable(),
  }),
  attribution: z.object({
    upstreamIp: z.string().nullable(),
    pod: z
      .object({
        namespace: z.string().min(1),
        name: z.string().min(1),
        uid: z.string().nullable().optional(),
      })
      .nullable(),
    owner,
    state: z.enum(ATTRIBUTED_STATES),
    deletionStartedAt: epochMs.nullable(),
    goneAt: epochMs.nullable(),
    afterTerminationMs: z.number().nullable(),
    reason: z.string(),
  }),
}) satisfies z.ZodType<StoredFailure>;

/** A part of the capture that is not in the archive, and why (unknown with its reason). */
const SkippedSchema = z.object({
  /** The archive path (or folder) that is missing, e.g. `cluster/secrets`. */
  part: z.string().min(1),
  reason: z.string().min(1),
});

/** A pod whose files could not be read: named with the reason, never written as empty files. */
const UnreachableSchema = z.object({
  namespace: z.string().min(1),
  pod: z.string().min(1),
  /** What was asked: `envoy admin`, `ztunnel admin`, `istiod debug`, `istio-proxy log`. */
  what: z.string().min(1),
  reason: z.string().min(1),
});

export const GatherManifestSchema = z.object({
  format: z.literal('meshdx-gather'),
  version: z.number().int().positive(),
  meshdxVersion: z.string().min(1),
  /** When the capture ended, on the API server's clock. */
  capturedAt: iso,
  /** The window of the history, the failures and the logs. */
  window: z.object({ from: iso, to: iso, since: z.string().min(1) }),
  context: z.string().min(1),
  server: z.string().min(1),
  /** The namespaces asked for (`--namespace`); null: every namespace. */
  namespaces: z.array(z.string().min(1)).nullable(),
  /** The history store read, or why none was. */
  history: z.object({ file: z.string().nullable(), problem: z.string().nullable() }),
  /** What the archive holds of meshdx's own: how many records of each. */
  counts: z.object({
    podIntervals: z.number().int().nonnegative(),
    failures: z.number().int().nonnegative(),
  }),
  proxies: z.array(z.object({ namespace: z.string(), pod: z.string(), kind: z.string() })),
  istiods: z.array(z.object({ namespace: z.string(), pod: z.string() })),
  unreachable: z.array(UnreachableSchema),
  skipped: z.array(SkippedSchema),
  /** What the capture asked of the API server (meshdx's request budget counts). */
  requests: z.record(z.string(), z.number().int().nonnegative()),
  /** The budget it kept to (server/kube/budget.ts) and the most it used of it. */
  budget: z.object({
    qps: z.number().positive(),
    burst: z.number().positive(),
    proxyConcurrency: z.number().int().positive(),
    peakQps: z.number().nonnegative(),
    peakInFlightProxy: z.number().int().nonnegative(),
    throttledWaits: z.number().int().nonnegative(),
    retries: z.number().int().nonnegative(),
  }),
});

export type GatherManifest = z.infer<typeof GatherManifestSchema>;
export type GatherSkipped = z.infer<typeof SkippedSchema>;
export type GatherUnreachable = z.infer<typeof UnreachableSchema>;

/** One line that could not be read, named by its file and line number. */
export interface GatherExtrasProblem {
  file: string;
  line: number | null;
  message: string;
}

export interface GatherExtras {
  /** null when the archive has no readable manifest (not a meshdx gather, or a broken one). */
  manifest: GatherManifest | null;
  intervals: PodInterval[];
  failures: StoredFailure[];
  problems: GatherExtrasProblem[];
}

/** The text of an entry of the archive by its full name, undefined when it has none. */
export type ArchiveText = (entry: string) => string | undefined;

function issueText(e: z.ZodError): string {
  return e.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`)
    .join('; ');
}

function readLines<T>(
  file: string,
  text: string | undefined,
  schema: z.ZodType<T>,
  problems: GatherExtrasProblem[],
): T[] {
  if (text === undefined) return [];
  const out: T[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]?.trim() ?? '';
    if (line === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line) as unknown;
    } catch (e) {
      problems.push({ file, line: i + 1, message: `not JSON: ${(e as Error).message}` });
      continue;
    }
    const r = schema.safeParse(value);
    if (r.success) out.push(r.data);
    else problems.push({ file, line: i + 1, message: issueText(r.error) });
  }
  return out;
}

/**
 * meshdx's own files of a gathered archive, each line checked by its schema: what cannot be read
 * is a problem with its file and line, the rest is kept. An archive istioctl wrote (no
 * `bug-report/meshdx/`) gives no manifest, no records and no problem: it simply has none.
 */
export function readGatherExtras(read: ArchiveText): GatherExtras {
  const problems: GatherExtrasProblem[] = [];
  const manifestText = read(GATHER_MANIFEST);
  let manifest: GatherManifest | null = null;
  if (manifestText !== undefined) {
    let value: unknown = undefined;
    try {
      value = JSON.parse(manifestText) as unknown;
    } catch (e) {
      problems.push({
        file: GATHER_MANIFEST,
        line: null,
        message: `not JSON: ${(e as Error).message}`,
      });
    }
    if (value !== undefined) {
      const version = (value as { version?: unknown } | null)?.version;
      if (typeof version === 'number' && version > GATHER_FORMAT_VERSION) {
        problems.push({
          file: GATHER_MANIFEST,
          line: null,
          message: `format version ${version} is newer than this meshdx reads (${GATHER_FORMAT_VERSION}): upgrade meshdx to open it`,
        });
      } else {
        const r = GatherManifestSchema.safeParse(value);
        if (r.success) manifest = r.data;
        else problems.push({ file: GATHER_MANIFEST, line: null, message: issueText(r.error) });
      }
    }
  }
  const intervals = readLines(
    GATHER_INTERVALS,
    read(GATHER_INTERVALS),
    PodIntervalSchema,
    problems,
  );
  const failures = readLines(GATHER_FAILURES, read(GATHER_FAILURES), StoredFailureSchema, problems);
  if (manifest) {
    if (manifest.counts.podIntervals !== intervals.length)
      problems.push({
        file: GATHER_INTERVALS,
        line: null,
        message: `the manifest counts ${manifest.counts.podIntervals} pod intervals, the file holds ${intervals.length} readable ones`,
      });
    if (manifest.counts.failures !== failures.length)
      problems.push({
        file: GATHER_FAILURES,
        line: null,
        message: `the manifest counts ${manifest.counts.failures} failures, the file holds ${failures.length} readable ones`,
      });
  }
  return { manifest, intervals, failures, problems };
}

/** One line of `pod-intervals.jsonl` or `failures.jsonl` (what the writer and the reader agree on). */
export function gatherExtraLine(record: PodInterval | StoredFailure): string {
  return `${JSON.stringify(record)}\n`;
}
