import type { EnvoyProxyStats } from '../metrics/envoy-stats';
import type { FigureSource, ProxyFleetRow } from '../api/proxies';

/** A proxy the fleet scan asks, with what the API objects already say about it. */
export interface ProxyTarget {
  namespace: string;
  name: string;
  workload: string;
  workloadKind: string;
  placement: ProxyFleetRow['placement'];
  podIP: string | null;
  /** Why there is nothing to scrape (no IP, proxy not running, pod gone), or null. */
  notRunning: string | null;
  sidecar: ProxyFleetRow['sidecar'];
  /** Why the Sidecar that selects it is not known (the Sidecars were not read), when so. */
  sidecarUnknown?: string | null;
  /** Tag of the istio-proxy image (proxyv2:1.24.0 -> 1.24.0), the fallback Istio version. */
  imageVersion: string | null;
}

/**
 * What reading one proxy gave (its :15090 scrape, or its series in Prometheus): its numbers,
 * where and when they were sampled, or why there are none (`status`: the scrape failed, there is
 * no usable series, or the answer came after the view's deadline; default unreachable).
 */
export type ScrapeOutcome =
  | {
      ok: true;
      stats: EnvoyProxyStats;
      errors: number;
      source?: FigureSource;
      sampledAt?: string | null;
    }
  | { ok: false; reason: string; status?: 'unreachable' | 'unknown' | 'late' };
