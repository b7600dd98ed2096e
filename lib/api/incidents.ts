import { z } from 'zod';
import { LatePartsSchema } from './late';
import { ParseProblemSchema } from './parse-problem';
import { FindingSchema } from './findings';

/** The Incidents screen's view model: one request, a finished picture (see lib/incidents/build.ts). */
const podRef = z.object({ namespace: z.string(), name: z.string(), uid: z.string().nullable() });
const owner = z.object({ kind: z.string(), name: z.string() }).nullable();
const holderState = z.enum(['live', 'terminating', 'terminated', 'unknown']);
const counts = z.record(z.string(), z.number());

export const RequestRowSchema = z.object({
  /** Which log the line came from ("ns/pod" of the client, or "upload"). */
  source: z.string(),
  line: z.number(),
  time: z.string().nullable(),
  code: z.number().nullable(),
  flags: z.array(z.string()),
  upstream: z.string().nullable(),
  upstreamIp: z.string().nullable(),
  pod: podRef.nullable(),
  owner,
  state: holderState,
  afterTerminationMs: z.number().nullable(),
  reason: z.string(),
  client: z.string().nullable(),
  service: z.string().nullable(),
});
export type RequestRow = z.infer<typeof RequestRowSchema>;

export const UpstreamPodRowSchema = z.object({
  pod: podRef.nullable(),
  owner,
  node: z.string().nullable(),
  state: holderState,
  count: z.number(),
  byState: counts,
  byFlag: counts,
  byCode: counts,
  upstreamIps: z.array(z.string()),
  firstTime: z.string().nullable(),
  lastTime: z.string().nullable(),
  maxAfterTerminationMs: z.number().nullable(),
  deletionStartedAt: z.string().nullable(),
  goneAt: z.string().nullable(),
  services: z.array(z.string()),
  clients: z.array(z.string()),
});
export type UpstreamPodRow = z.infer<typeof UpstreamPodRowSchema>;

export const ServiceRowSchema = z.object({
  fqdn: z.string(),
  count: z.number(),
  byState: counts,
  byFlag: counts,
  replicas: z.number().nullable(),
  /** Most server pods seen terminating at the same time. */
  concurrentTerminations: z.number(),
  destinationRule: z.string().nullable(),
  outlier: z
    .object({
      source: z.string(),
      subset: z.string().nullable(),
      consecutive5xxErrors: z.number().nullable(),
      consecutiveGatewayErrors: z.number().nullable(),
      interval: z.string().nullable(),
      baseEjectionTime: z.string().nullable(),
      maxEjectionPercent: z.number().nullable(),
    })
    .nullable(),
  retries: z.object({
    source: z.string().nullable(),
    attempts: z.number(),
    retryOn: z.string(),
    perTryTimeout: z.string().nullable(),
    isDefault: z.boolean(),
  }),
});
export type ServiceRow = z.infer<typeof ServiceRowSchema>;

export const ChartBucketSchema = z.object({
  start: z.string(),
  total: z.number(),
  byFlag: counts,
});

export const MarkerSchema = z.object({
  kind: z.enum(['termination', 'gone']),
  at: z.string(),
  pod: z.string(),
  workload: z.string().nullable(),
});
export type Marker = z.infer<typeof MarkerSchema>;

export const RolloutSchema = z.object({
  namespace: z.string(),
  workload: z.string(),
  /** The new revision's ReplicaSet (null when only an old one's pods were seen going). */
  replicaSet: z.string().nullable(),
  from: z.string(),
  to: z.string(),
  pods: z.number(),
});
export type Rollout = z.infer<typeof RolloutSchema>;

export const LogSourceSchema = z.object({
  source: z.string(),
  lines: z.number(),
  records: z.number(),
  failing: z.number(),
  errors: z.number(),
  skipped: z.number(),
  /** Fetch or read problem, when the log could not be read at all. */
  problem: z.string().nullable(),
});
export type LogSource = z.infer<typeof LogSourceSchema>;

/** An unreadable line of a log, with the log it is in. */
export const LineProblemSchema = ParseProblemSchema.extend({ source: z.string() });

export const StaleHostSchema = z.object({
  cluster: z.string(),
  service: z.string().nullable(),
  address: z.string(),
  health: z.string().nullable(),
  /** Last pod known to hold the IP, from history. */
  lastHolder: z.string().nullable(),
  state: holderState,
});
export type StaleHost = z.infer<typeof StaleHostSchema>;

export const ClientChoiceSchema = z.object({
  pod: z.string(),
  reason: z.enum(['asked', 'failures', 'calls-churn', 'churn', 'rest']),
  failures: z.number().nullable(),
  churn: z.number(),
  why: z.string(),
});
export type ClientChoiceRow = z.infer<typeof ClientChoiceSchema>;

/** What the window's failing requests in the store are made of, and what the store keeps. */
export const WindowMemorySchema = z.object({
  failing: z.number(),
  byRead: counts,
  whileAlive: z.number(),
  fromReceiver: z.number(),
  fromUploads: z.number(),
  /** Client pods of the window that are gone and whose logs were never read. */
  goneUnread: z.array(z.string()),
  readNow: z.number(),
  fromStoreOnly: z.number(),
  /** Namespaces whose recorded requests this user may not see (`*`: records of no namespace). */
  hiddenNamespaces: z.array(z.string()).default([]),
  /** The one sentence every card shows. */
  text: z.string(),
  /** What the store keeps of raw failing requests, and since when. */
  retention: z.string(),
});
export type WindowMemoryView = z.infer<typeof WindowMemorySchema>;

/** How long one client proxy kept sending to a pod after its deletion started. */
export const ClientLagRowSchema = z.object({
  client: z.string(),
  pod: z.string(),
  podUid: z.string().nullable(),
  ip: z.string().nullable(),
  deletionStartedAt: z.string(),
  lastRequestAt: z.string(),
  lagMs: z.number(),
  requests: z.number(),
});
export type ClientLagRow = z.infer<typeof ClientLagRowSchema>;

export const LagPointSchema = z.object({
  start: z.string(),
  maxLagMs: z.number(),
  medianLagMs: z.number(),
  pairs: z.number(),
});

const HoldingLayerSchema = z.enum(['endpointslice', 'istiod', 'envoy', 'ztunnel']);

export const LayerStepSchema = z.object({
  layer: HoldingLayerSchema,
  at: z.number().nullable(),
  delayMs: z.number().nullable(),
  unknown: z.string().nullable(),
  failures: z.number(),
  note: z.string().nullable(),
});

/** For one failing IP and client proxy: which layer held it, how long, and the failures in each span. */
export const LayerTimelineSchema = z.object({
  ip: z.string(),
  pod: z.string(),
  client: z.string(),
  deletionStartedAt: z.number().nullable(),
  goneAt: z.number().nullable(),
  shardsAt: z.number().nullable(),
  steps: z.array(LayerStepSchema),
  held: HoldingLayerSchema.nullable(),
  heldMs: z.number().nullable(),
  health: z.string().nullable(),
  /** Every ztunnel seen dropping the workload (ambient); absent in a view frozen before they were read. */
  ztunnels: z
    .array(
      z.object({
        ztunnel: z.string(),
        at: z.number(),
        delayMs: z.number().nullable(),
        status: z.string(),
      }),
    )
    .default([]),
  failures: z.number(),
  after: z.number(),
  before: z.number(),
  /** How late each instant may be (the longest gap between the reads that dated one); absent before it was kept. */
  readGapMs: z.number().nullable().default(null),
  sentence: z.string(),
});
export type LayerTimelineRow = z.infer<typeof LayerTimelineSchema>;

export const LayersPartSchema = z.object({
  timelines: z.array(LayerTimelineSchema),
  /** Why the layers were not read, or since when they are (a sentence), null when fine. */
  note: z.string().nullable(),
  samplingMs: z.number().nullable(),
});

export const IncidentsViewSchema = z.object({
  generatedAt: z.string(),
  /** What was not read by the view's deadline (still being read), or shown from a last read. */
  late: LatePartsSchema,
  window: z.object({ from: z.string().nullable(), to: z.string().nullable() }),
  history: z.object({ source: z.string(), intervals: z.number(), note: z.string().nullable() }),
  sources: z.array(LogSourceSchema),
  /** Client pods that were not read (limit reached). */
  sourcesSkipped: z.number(),
  /** How the client proxies whose logs were read were chosen, and the ones skipped (first 200). */
  clients: z
    .object({
      source: z.string(),
      note: z.string().nullable(),
      limit: z.number(),
      chosen: z.array(ClientChoiceSchema),
      skipped: z.array(ClientChoiceSchema),
      /** Chosen clients whose logs this answer read: the same figure as memory.readNow. */
      read: z.number().optional(),
      /** Chosen clients the store already covered (their logs not read again). */
      fromStore: z.number().optional(),
    })
    // a snapshot frozen before these figures read every chosen client's log, as it said then
    .transform((c) => ({ ...c, read: c.read ?? c.chosen.length, fromStore: c.fromStore ?? 0 })),
  lineErrors: z.array(LineProblemSchema),
  totals: z.object({
    records: z.number(),
    failing: z.number(),
    shown: z.number(),
    byState: counts,
    outsideWindow: z.number(),
    inbound: z.number(),
  }),
  chart: z.object({
    /** The window on the time axis (the URL's, else the failures' span): RFC 3339. */
    from: z.string(),
    to: z.string(),
    /** Bin step, chosen from the window (1 s up to hours, about 60 to 120 bins). */
    bucketMs: z.number(),
    buckets: z.array(ChartBucketSchema),
    flags: z.array(z.string()),
    markers: z.array(MarkerSchema),
    rollouts: z.array(RolloutSchema),
  }),
  pods: z.array(UpstreamPodRowSchema),
  requests: z.array(RequestRowSchema),
  services: z.array(ServiceRowSchema),
  findings: z.array(FindingSchema),
  stale: z
    .object({
      client: z.string(),
      checked: z.number(),
      problem: z.string().nullable(),
      hosts: z.array(StaleHostSchema),
    })
    .nullable(),
  /** Where the window's failures come from (null: an upload, read and shown as is). */
  memory: WindowMemorySchema.nullable(),
  /** Per client proxy, how long it kept a deleted pod (rows, longest first; series by deletion start). */
  lag: z.object({ rows: z.array(ClientLagRowSchema), series: z.array(LagPointSchema) }),
  /** The layer that held each failing IP, per client (a snapshot frozen before it has none). */
  layers: LayersPartSchema.optional().transform(
    (l) => l ?? { timelines: [], note: 'not recorded when this view was frozen', samplingMs: null },
  ),
});
export type IncidentsView = z.infer<typeof IncidentsViewSchema>;
