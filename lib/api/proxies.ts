import { z } from 'zod';
import { ParseProblemSchema } from './parse-problem';
import { ApiBudgetSchema } from './budget';
import { ApiErrorSchema } from './errors';
import { LatePartsSchema } from './late';
import { ImplausibleSchema, MeasuredSumSchema } from './measured';

/**
 * View models of the Proxies screen: the fleet (every proxy's cheap numbers from :15090, streamed
 * as NDJSON progress lines then the result) and one proxy's istioctl cluster table.
 */

export const FleetPlacementSchema = z.enum(['sidecar', 'native-sidecar', 'gateway', 'waypoint']);

/**
 * ok: numbers read; unreachable: the proxy did not answer (the API server said it could not
 * reach it); not-running: nothing to ask; unknown: no usable figures (no or a lagging series in
 * Prometheus, no answer through a slow API server, an impossible active-clusters gauge: reason
 * says which); late: not answered by the view's deadline. Only `ok` rows carry cluster numbers:
 * the others are never counted as 0.
 */
export const ProxyStatusSchema = z.enum(['ok', 'unreachable', 'not-running', 'unknown', 'late']);

/** Where a row's numbers came from: Prometheus, or meshdx's own scrape of the proxy. */
export const FigureSourceSchema = z.enum(['prometheus', 'scrape']);
export type FigureSource = z.infer<typeof FigureSourceSchema>;

export const SidecarRefSchema = z.object({
  namespace: z.string(),
  name: z.string(),
  /** Which level selected it: a workloadSelector, the namespace default, or the root default. */
  source: z.enum(['workload', 'namespace', 'root']),
});

/** istioctl proxy-status per xDS type: SYNCED, STALE, STALE (Never Acknowledged), NOT SENT. */
export const SyncSchema = z.object({
  istiod: z.string(),
  /** Worst state over the xDS types. */
  state: z.string(),
  types: z.record(z.string(), z.string()),
});

export const FleetRowSchema = z.object({
  key: z.string(),
  namespace: z.string(),
  name: z.string(),
  workload: z.string(),
  workloadKind: z.string(),
  placement: FleetPlacementSchema,
  status: ProxyStatusSchema,
  reason: z.string().nullable(),
  activeClusters: z.number().nullable(),
  warmingClusters: z.number().nullable(),
  /** Static/control-plane clusters this proxy kind is known to carry (bootstrap + catch-alls). */
  knownStaticClusters: z.number(),
  /** Derived: active - knownStatic (never below 0). The per-proxy detail gives the exact split. */
  serviceClustersEstimate: z.number().nullable(),
  listeners: z.number().nullable(),
  memoryBytes: z.number().nullable(),
  istioVersion: z.string().nullable(),
  serverState: z.string().nullable(),
  /** The Sidecar that selects it; null: none does (unless `sidecarUnknown` says it is unknown). */
  sidecar: SidecarRefSchema.nullable(),
  /** Why the Sidecar is unknown (the Sidecar resources were not read by the deadline). */
  sidecarUnknown: z.string().nullable(),
  sync: SyncSchema.nullable(),
  /** Lines of the scrape meshdx could not read (counted, not hidden). */
  scrapeErrors: z.number(),
  /** Figures read but impossible (their field is null): shown with the raw value. */
  implausible: z.array(ImplausibleSchema),
  /** Where the numbers came from (null when there are none). */
  source: FigureSourceSchema.nullable(),
  /** When the numbers were sampled (Prometheus sample time, or meshdx's scrape time). */
  sampledAt: z.string().nullable(),
});
export type ProxyFleetRow = z.infer<typeof FleetRowSchema>;

export const NamespaceSummarySchema = z.object({
  namespace: z.string(),
  proxies: z.number(),
  reachable: z.number(),
  /** Proxies no Sidecar resource selects (they get every service of the mesh). */
  unscopedProxies: z.number(),
  unscoped: z.boolean(),
  /** Proxies whose Sidecar is unknown (the Sidecars were not read): neither scoped nor not. */
  sidecarUnknown: z.number(),
  /** Sum over its reachable proxies; null when none was measured (unknown, not 0). */
  clusters: z.number().nullable(),
  maxClusters: z.number().nullable(),
});
export type NamespaceSummary = z.infer<typeof NamespaceSummarySchema>;

export const WorkloadSummarySchema = z.object({
  namespace: z.string(),
  workload: z.string(),
  workloadKind: z.string(),
  proxies: z.number(),
  /** Proxies whose active clusters were read: the sum below is theirs (partial when < proxies). */
  counted: z.number(),
  /**
   * Sum of active clusters over the workload's reachable proxies: its share of the push volume;
   * null when none was measured (unknown, not 0).
   */
  clusters: z.number().nullable(),
  maxClusters: z.number().nullable(),
  unscoped: z.boolean(),
});
export type WorkloadSummary = z.infer<typeof WorkloadSummarySchema>;

export const DistributionBinSchema = z.object({
  from: z.number(),
  /** Exclusive upper bound. */
  to: z.number(),
  count: z.number(),
});
export type DistributionBin = z.infer<typeof DistributionBinSchema>;

export const FleetTotalsSchema = z.object({
  proxies: z.number(),
  reachable: z.number(),
  unreachable: z.number(),
  notRunning: z.number(),
  /** No series in Prometheus (or only a lagging one). */
  unknown: z.number(),
  /** Not answered by the view's deadline. */
  late: z.number(),
  /**
   * Sum of active clusters over the proxies whose count was read (the push volume), with how many
   * running proxies it leaves out because theirs is unknown; null when none was read.
   */
  clusters: MeasuredSumSchema,
  serviceClustersEstimate: MeasuredSumSchema,
  listeners: MeasuredSumSchema,
  memoryBytes: MeasuredSumSchema,
  unscopedProxies: z.number(),
  /** Proxies whose Sidecar is unknown (left out of unscopedProxies, which is then a floor). */
  sidecarUnknown: z.number(),
});
export type FleetTotals = z.infer<typeof FleetTotalsSchema>;

/** One ztunnel (ambient's node proxy, not Envoy): what its config holds and its memory. */
export const ZtunnelRowSchema = z.object({
  namespace: z.string(),
  name: z.string(),
  node: z.string().nullable(),
  ready: z.boolean(),
  /** Workloads and services in its /config_dump; null when the dump could not be read. */
  workloads: z.number().nullable(),
  services: z.number().nullable(),
  /** Workloads it holds that no live pod backs (gone, or their IP reused). */
  stale: z.number().nullable(),
  /** Working set from metrics.k8s.io (what `kubectl top pod` shows), null when not served. */
  memoryBytes: z.number().nullable(),
  problem: z.string().nullable(),
});
export type ZtunnelRow = z.infer<typeof ZtunnelRowSchema>;

export const ZtunnelWorkloadRowSchema = z.object({
  name: z.string(),
  namespace: z.string(),
  ip: z.string(),
  node: z.string(),
  waypoint: z.string().nullable(),
  protocol: z.string(),
  status: z.string().nullable(),
  stale: z
    .object({ reason: z.enum(['pod-gone', 'ip-reused']), holder: z.string().nullable() })
    .nullable(),
});

/** One ztunnel's workload table, like `istioctl ztunnel-config workloads`, stale rows first. */
export const ZtunnelDetailSchema = z.object({
  namespace: z.string(),
  name: z.string(),
  node: z.string().nullable(),
  fetchedAt: z.string(),
  /** Whether the dump was read; when not, `problem` says why and the counts mean nothing. */
  read: z.boolean(),
  problem: z.string().nullable(),
  workloads: z.array(ZtunnelWorkloadRowSchema),
  services: z.number(),
  stale: z.number(),
  /** Entries of the dump that could not be read (the rest was read). */
  errors: z.array(ParseProblemSchema),
});
export type ZtunnelDetail = z.infer<typeof ZtunnelDetailSchema>;
/** Where the fleet's figures came from, what was asked, and how old they are. */
export const FleetSourceSchema = z.object({
  kind: FigureSourceSchema,
  /** The Prometheus (Thanos, Mimir...) asked, when it was. */
  prometheus: z.string().nullable(),
  /** The instant queries sent to it. */
  queries: z.array(z.string()),
  /** Oldest and newest sample behind the figures (null without samples). */
  oldestSampleAt: z.string().nullable(),
  newestSampleAt: z.string().nullable(),
  /** Why the source is not the one configured, or what is partial about it. */
  note: z.string().nullable(),
});
export type FleetSource = z.infer<typeof FleetSourceSchema>;

/** The slice of rows the screen asked for: filters, sort and page applied on the server. */
export const FleetPageSchema = z.object({
  offset: z.number(),
  limit: z.number(),
  /** Rows that match the filters (all pages). */
  matched: z.number(),
  namespace: z.string().nullable(),
  workload: z.string().nullable(),
  q: z.string().nullable(),
  sort: z.string(),
  dir: z.enum(['asc', 'desc']),
  /** Filter options over the whole fleet. */
  namespaces: z.array(z.string()),
  workloads: z.array(z.string()),
});
export type FleetPage = z.infer<typeof FleetPageSchema>;

const TypeStalenessSchema = z.object({
  state: z.enum(['NOT SENT', 'SYNCED', 'STALE (Never Acknowledged)', 'STALE']),
  ageMs: z.number().nullable(),
});

export const StalenessSchema = z.object({
  thresholdMs: z.number(),
  proxies: z.number(),
  stale: z.number(),
  overThreshold: z.number(),
  ageUnknown: z.number(),
  top: z.array(
    z.object({
      proxy: z.string(),
      istiod: z.string(),
      types: z.record(z.string(), TypeStalenessSchema),
      oldestMs: z.number().nullable(),
      stale: z.boolean(),
      overThreshold: z.boolean(),
    }),
  ),
});

export const FleetViewSchema = z.object({
  scannedAt: z.string(),
  durationMs: z.number(),
  concurrency: z.number(),
  timeoutMs: z.number(),
  /** The deadline the view answered within (proxies not answered by then are `late`). */
  deadlineMs: z.number(),
  source: FleetSourceSchema,
  /** meshdx's own API requests to this cluster so far (its request budget). */
  api: ApiBudgetSchema,
  /** The rows of the page asked for (all rows when no page was asked). */
  rows: z.array(FleetRowSchema),
  /** ztunnels are not Envoy: they have their own rows (workloads and services they hold). */
  ztunnels: z.array(ZtunnelRowSchema),
  page: FleetPageSchema,
  namespaces: z.array(NamespaceSummarySchema),
  topWorkloads: z.array(WorkloadSummarySchema),
  distribution: z.array(DistributionBinSchema),
  totals: FleetTotalsSchema,
  sync: z.object({
    available: z.boolean(),
    istiods: z.number(),
    /** Why sync state is missing or partial (per istiod replica), when it is. */
    problems: z.array(z.string()),
    /** The fleet's stale proxies from syncz alone, ranked (lib/proxies/staleness.ts). */
    staleness: StalenessSchema.nullable().default(null),
  }),
  /** What the view could not read by its deadline (the pods, the Sidecars...): it is partial. */
  late: LatePartsSchema,
});
export type FleetView = z.infer<typeof FleetViewSchema>;

export const FleetProgressSchema = z.object({
  type: z.literal('progress'),
  done: z.number(),
  total: z.number(),
  unreachable: z.number(),
});
export type FleetProgress = z.infer<typeof FleetProgressSchema>;

/** One NDJSON line of GET /api/proxies/fleet?stream=1. */
export const FleetStreamLineSchema = z.discriminatedUnion('type', [
  FleetProgressSchema,
  z.object({ type: z.literal('result'), fleet: FleetViewSchema }),
  z.object({ type: z.literal('error'), error: ApiErrorSchema.shape.error }),
]);
export type FleetStreamLine = z.infer<typeof FleetStreamLineSchema>;

export const ClusterRowViewSchema = z.object({
  name: z.string(),
  fqdn: z.string(),
  port: z.union([z.number(), z.literal('-')]),
  subset: z.string(),
  direction: z.string(),
  type: z.string(),
  destinationRule: z.string(),
  source: z.enum(['static', 'dynamic', 'unlisted']),
  /** Namespace of the destination service (`NAME.NS.svc...`), null when not a Kubernetes host. */
  destinationNamespace: z.string().nullable(),
  service: z.boolean(),
  /** From /stats upstream_rq_total/upstream_cx_total; null when stats were not available. */
  used: z.boolean().nullable(),
});
export type ClusterRowView = z.infer<typeof ClusterRowViewSchema>;

export const ResourceCountsSchema = z.object({
  static: z.number(),
  dynamic: z.number(),
  warming: z.number(),
  draining: z.number(),
});

export const PartErrorSchema = z.object({ part: z.string(), message: z.string() });

export const ProxyDetailSchema = z.object({
  namespace: z.string(),
  name: z.string(),
  fetchedAt: z.string(),
  clusters: z.array(ClusterRowViewSchema),
  /** The cluster counts; each null (never 0) when the clusters could not be read, `unknown` says why. */
  summary: z.object({
    total: z.number().nullable(),
    static: z.number().nullable(),
    dynamic: z.number().nullable(),
    service: z.number().nullable(),
    nonService: z.number().nullable(),
    warming: z.number().nullable(),
    byType: z.record(z.string(), z.number()).nullable(),
    byDirection: z
      .object({ inbound: z.number(), outbound: z.number(), other: z.number() })
      .nullable(),
    /** Why the counts are unknown (the clusters' read error), or null when they were read. */
    unknown: z.string().nullable(),
  }),
  byNamespace: z.array(z.object({ namespace: z.string(), clusters: z.number() })),
  listeners: ResourceCountsSchema.nullable(),
  routes: ResourceCountsSchema.nullable(),
  /** Used vs unused over the outbound service clusters (control-plane and catch-alls left out). */
  usage: z.object({
    available: z.boolean(),
    /** Null (never 0) when the clusters or their stats could not be read: `unknown` says why. */
    used: z.number().nullable(),
    unused: z.number().nullable(),
    /** Counter names seen for clusters that are not in the table (removed since, or renamed). */
    unmatched: z.number().nullable(),
    /** Why used and unused are unknown; absent when they were read or the proxy has no stats. */
    unknown: z.string().optional(),
  }),
  /** What could not be read (each part separately), never hidden. */
  errors: z.array(PartErrorSchema),
});
export type ProxyDetail = z.infer<typeof ProxyDetailSchema>;
