/**
 * The Scoping screen's response: the analysis (lib/api/scoping ScopingReport) plus what the
 * server saw while gathering it (sources reached, proxies unreachable, istiod push health).
 */
import { z } from 'zod';
import { ImplausibleSchema } from './measured';
import { LatePartsSchema } from './late';
import { ScopingReportSchema } from './scoping';

export const IstiodPushSchema = z.object({
  pod: z.string(),
  reachable: z.boolean(),
  error: z.string().nullable(),
  /** pilot_xds: proxies connected to this replica. */
  connectedProxies: z.number().nullable(),
  /** pilot_services. */
  services: z.number().nullable(),
  /** pilot_xds_pushes by type (cds, eds, lds, rds, ...). */
  pushes: z.record(z.string(), z.number()),
  /** pilot_proxy_convergence_time (seconds). */
  convergence: z
    .object({
      count: z.number(),
      mean: z.number().nullable(),
      p50: z.number().nullable(),
      p99: z.number().nullable(),
    })
    .nullable(),
  /** pilot_xds_config_size_bytes mean (bytes per push), when exported. */
  configSizeMeanBytes: z.number().nullable(),
  /** Figures read that cannot be (shown as unknown above), with what was read. */
  implausible: z.array(ImplausibleSchema),
});
export type IstiodPush = z.infer<typeof IstiodPushSchema>;

export const SourceCoverageSchema = z.object({
  source: z.enum(['envoy-stats', 'access-log', 'prometheus']),
  /** Proxies (or workloads, for Prometheus) asked. */
  asked: z.number(),
  available: z.number(),
  /** A few reasons, deduplicated, for the rest. */
  reasons: z.array(z.object({ reason: z.string(), count: z.number() })),
});

export const GatherSummarySchema = z.object({
  durationMs: z.number(),
  concurrency: z.number(),
  timeoutMs: z.number(),
  proxies: z.number(),
  /** :15090 answered with cluster_manager.active_clusters. */
  countsMeasured: z.number(),
  /** Of those, counts taken from Prometheus's fleet series (no request to the proxy). */
  countsFromPrometheus: z.number().optional(),
  /**
   * Why Prometheus gave no counts (unreachable, timed out, no fleet series), so each proxy was
   * read instead; null when it gave them or is not configured.
   */
  countsPrometheusError: z.string().nullable().optional(),
  unreachable: z.array(z.object({ namespace: z.string(), pod: z.string(), reason: z.string() })),
  unreachableTotal: z.number(),
  sources: z.array(SourceCoverageSchema),
  logTailLines: z.number(),
  prometheus: z.enum(['off', 'ok', 'error']),
});
export type GatherSummary = z.infer<typeof GatherSummarySchema>;

export const ScopingViewSchema = z.object({
  report: ScopingReportSchema,
  gather: GatherSummarySchema,
  push: z.object({
    istiods: z.array(IstiodPushSchema),
    /** Why there is no push health at all (no istiod found), else null. */
    error: z.string().nullable(),
  }),
  /** Lists not read by the deadline and shown from their last read. */
  late: LatePartsSchema,
});
export type ScopingView = z.infer<typeof ScopingViewSchema>;
