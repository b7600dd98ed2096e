import { z } from 'zod';
import { FindingSchema } from './findings';

/** The Scoping view's contract: one view model for the whole screen. */

export const ObservationSourceSchema = z.enum(['envoy-stats', 'access-log', 'prometheus']);
export const SidecarSourceSchema = z.enum(['workload', 'namespace', 'root', 'none']);

export const SidecarRefSchema = z.object({
  source: SidecarSourceSchema,
  namespace: z.string().nullable(),
  name: z.string().nullable(),
});

/** Cluster counts. `current` is measured (active_clusters) when the proxy answered, else modelled. */
export const ClusterFiguresSchema = z.object({
  current: z.number(),
  measured: z.boolean(),
  modelled: z.number(),
  minimum: z.number(),
  predicted: z.number(),
  /** Carried outbound clusters of services never called; null when nothing observed it. */
  unused: z.number().nullable(),
});

export const ProxyRowSchema = z.object({
  pod: z.string(),
  measuredActive: z.number().nullable(),
  measuredService: z.number().nullable(),
  inbound: z.number(),
  nonService: z.number(),
  clusters: ClusterFiguresSchema,
});

export const DestinationRowSchema = z.object({
  host: z.string(),
  /** Registry namespaces of the host; empty when not in the registry (external, passthrough). */
  namespaces: z.array(z.string()),
  inRegistry: z.boolean(),
  ports: z.array(z.number()),
  sources: z.array(ObservationSourceSchema),
  bestSource: ObservationSourceSchema,
  /** Hits seen by the best source. */
  count: z.number(),
  /** Visible under the Sidecar that applies today. */
  visibleNow: z.boolean(),
  /** Outbound clusters this host takes in the proxy today. */
  clusters: z.number(),
});

export const SourceRowSchema = z.object({
  source: ObservationSourceSchema,
  available: z.boolean(),
  observations: z.number(),
  errors: z.array(z.string()),
});

export const WorkloadRowSchema = z.object({
  namespace: z.string(),
  name: z.string(),
  kind: z.string(),
  replicas: z.number(),
  sidecar: SidecarRefSchema,
  observed: z.boolean(),
  sources: z.array(SourceRowSchema),
  destinations: z.array(DestinationRowSchema),
  cutOff: z.array(z.string()),
  unusedServices: z.array(z.object({ host: z.string(), clusters: z.number() })),
  unusedServicesTotal: z.number(),
  /** Per proxy averages over its replicas (rounded) and sums over replicas. */
  clusters: ClusterFiguresSchema,
  clustersTotal: ClusterFiguresSchema,
  proxies: z.array(ProxyRowSchema),
  /** Name of the proposed Sidecar that will govern it, if any. */
  proposedSidecar: z.string().nullable(),
});
export type WorkloadRow = z.infer<typeof WorkloadRowSchema>;

export const NamespaceRowSchema = z.object({
  name: z.string(),
  rank: z.number(),
  defaultSidecar: SidecarRefSchema,
  workloadSidecars: z.array(z.object({ workload: z.string(), sidecar: z.string() })),
  workloads: z.number(),
  proxies: z.number(),
  unobservedWorkloads: z.number(),
  /** Sums over the namespace's proxies. */
  clusters: ClusterFiguresSchema,
  /**
   * Clusters today minus the minimum needed (`clusters.current - clusters.minimum`, the ranking
   * key); null when none of its workloads was observed (unknown, not 0: ranked after every known
   * one); partial when `unobservedWorkloads` > 0.
   */
  waste: z.number().nullable(),
});
export type ScopingNamespaceRow = z.infer<typeof NamespaceRowSchema>;

export const GeneratedSidecarSchema = z.object({
  namespace: z.string(),
  name: z.string(),
  level: z.enum(['namespace', 'workload']),
  action: z.enum(['create', 'replace', 'unchanged']),
  apply: z.boolean(),
  workloads: z.array(z.string()),
  selector: z.record(z.string(), z.string()).nullable(),
  hosts: z.array(z.string()),
  replaces: z.string().nullable(),
  yaml: z.string(),
  proxies: z.number(),
  clustersBefore: z.number(),
  clustersAfter: z.number(),
  /**
   * `~ns/host` exclusions (Istio 1.31+) of hosts of imported namespaces no governed workload
   * called, that take clusters off: in `hosts` and the YAML when `proposed` (istiod reads them),
   * else only said with why not. `clustersSaved`: over the governed proxies (included in
   * clustersAfter when proposed, on top of it otherwise). null: none would save a cluster, or
   * some governed workload's usage is unknown.
   */
  exclusions: z
    .object({
      hosts: z.array(z.string()),
      proposed: z.boolean(),
      clustersSaved: z.number(),
      notProposed: z.string().nullable(),
    })
    .nullable(),
  warnings: z.array(z.object({ code: z.string(), message: z.string() })),
});
export type GeneratedSidecar = z.infer<typeof GeneratedSidecarSchema>;

export const ScopingReportSchema = z.object({
  generatedAt: z.string(),
  rootNamespace: z.string(),
  istioNamespace: z.string(),
  window: z
    .object({ start: z.string(), end: z.string(), seconds: z.number(), trusted: z.boolean() })
    .nullable(),
  totals: z.object({
    namespaces: z.number(),
    workloads: z.number(),
    proxies: z.number(),
    proxiesMeasured: z.number(),
    services: z.number(),
    clustersBefore: z.number(),
    clustersAfter: z.number(),
    /** Mesh-wide reduction in pushed clusters: sum over proxies of before - after. */
    reduction: z.number(),
    /** Sum over the namespaces whose waste is known; null when none is. */
    waste: z.number().nullable(),
    /** Namespaces whose waste is unknown (no workload observed), left out of `waste`. */
    wasteUnknown: z.number(),
    /** Counted, not silently dropped. */
    gatewaysSkipped: z.number(),
    countsUnmatched: z.number(),
    observationsUnattributed: z.number(),
    hitsIgnored: z.number(),
  }),
  namespaces: z.array(NamespaceRowSchema),
  workloads: z.array(WorkloadRowSchema),
  generated: z.array(GeneratedSidecarSchema),
  /** Whether `~` exclusions are proposed (istiod 1.31+), and what they save or would save. */
  exclusions: z.object({
    support: z.enum(['supported', 'unsupported', 'unknown']),
    /** `istiod 1.31.0`, or why they are not proposed. */
    detail: z.string(),
    /** Proposals with exclusions that pay (proposed or only said). */
    proposals: z.number(),
    clustersSaved: z.number(),
  }),
  /** All applicable proposals as one multi-document YAML, for download. */
  generatedYaml: z.string(),
  findings: z.array(FindingSchema),
  catalog: z.array(
    z.object({
      code: z.string(),
      severity: z.enum(['error', 'warning', 'info']),
      title: z.string(),
      description: z.string(),
    }),
  ),
});
export type ScopingReport = z.infer<typeof ScopingReportSchema>;
