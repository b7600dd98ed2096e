import type { EnvoyProxyStats } from '../metrics/envoy-stats';
import type { FleetRow } from '../api/proxies';

/** A proxy the fleet scan asks, with what the API objects already say about it. */
export interface ProxyTarget {
  namespace: string;
  name: string;
  workload: string;
  workloadKind: string;
  placement: FleetRow['placement'];
  podIP: string | null;
  /** Why there is nothing to scrape (no IP, proxy not running, pod gone), or null. */
  notRunning: string | null;
  sidecar: FleetRow['sidecar'];
  /** Tag of the istio-proxy image (proxyv2:1.24.0 -> 1.24.0), the fallback Istio version. */
  imageVersion: string | null;
}

/** What scraping one proxy's :15090 gave: its numbers, or why it could not be read. */
export type ScrapeOutcome =
  { ok: true; stats: EnvoyProxyStats; errors: number } | { ok: false; reason: string };
