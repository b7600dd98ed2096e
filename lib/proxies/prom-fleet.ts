/**
 * The proxies' figures as a fleet read from Prometheus gives them (server/prometheus/fleet.ts
 * reads it), and whether they can be used.
 */
import type { EnvoyProxyStats } from '../metrics/envoy-stats';

export interface PromFleetSample {
  stats: EnvoyProxyStats;
  /** Scrape time of the active-clusters sample (epoch ms), null when unknown. */
  sampledAtMs: number | null;
  /** The same time as ISO text. */
  sampledAt: string | null;
}

export interface PromFleet {
  /** Keyed `namespace/pod`. */
  byPod: Map<string, PromFleetSample>;
  /** Series without a namespace or pod label (not attributable to a proxy). */
  unlabelled: number;
  error: string | null;
  queries: string[];
  /**
   * The instant every query was evaluated at, epoch ms on Prometheus's clock (NaN when none
   * was had): a sample's age is measured from it, so a meshdx clock off Prometheus's changes
   * neither which samples are read nor which are lagging.
   */
  atMs: number;
}

/**
 * Why a fleet read cannot give the proxies' figures (its error, or no fleet series at all), or
 * null when it can.
 */
export function promFleetProblem(p: PromFleet, url: string): string | null {
  if (p.error) return p.error;
  if (p.byPod.size === 0)
    return `Prometheus at ${url} has no envoy_cluster_manager_active_clusters series with namespace and pod labels (is Istio's sidecar scrape configured?)`;
  return null;
}

/** Why Prometheus could not give the fleet, as the fleet view says it, or null when it can. */
export function promUnusable(p: PromFleet, url: string): string | null {
  const why = promFleetProblem(p, url);
  return why === null ? null : `${why}: figures read from each proxy instead`;
}
