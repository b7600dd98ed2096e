import { histogramQuantile, readHistogram } from './histogram';
import type { Sample } from './types';

/** Envoy's server.state gauge values (envoy.admin.v3.ServerInfo.State). */
const SERVER_STATES: Record<number, string> = {
  0: 'LIVE',
  1: 'DRAINING',
  2: 'PRE_INITIALIZING',
  3: 'INITIALIZING',
};

export interface EnvoyProxyStats {
  activeClusters: number | null;
  warmingClusters: number | null;
  listenersActive: number | null;
  memoryAllocatedBytes: number | null;
  serverState: { value: number; name: string } | null;
  /** server.initialization_time_ms: start to LIVE, from the histogram. */
  initializationTimeMs: {
    sum: number;
    count: number;
    mean: number | null;
    p50: number | null;
  } | null;
  /** From `istio_build{component="proxy",tag=...}`, which the proxy exports on :15090 itself (and pilot-agent's :15020 merges). */
  istioVersion: string | null;
}

const NAMES = {
  activeClusters: 'envoy_cluster_manager_active_clusters',
  warmingClusters: 'envoy_cluster_manager_warming_clusters',
  listenersActive: 'envoy_listener_manager_total_listeners_active',
  memoryAllocated: 'envoy_server_memory_allocated',
  serverState: 'envoy_server_state',
  initTime: 'envoy_server_initialization_time_ms',
} as const;

/** Value of the first sample of `name`, preferring one without labels. */
function gauge(samples: readonly Sample[], name: string): number | null {
  let found: Sample | undefined;
  for (const s of samples) {
    if (s.name !== name) continue;
    if (Object.keys(s.labels).length === 0) return s.value;
    found ??= s;
  }
  return found ? found.value : null;
}

function istioVersion(samples: readonly Sample[]): string | null {
  let fallback: string | null = null;
  for (const s of samples) {
    if (s.name !== 'istio_build' || !s.labels.tag) continue;
    if (s.labels.component === 'proxy') return s.labels.tag;
    fallback ??= s.labels.tag;
  }
  return fallback;
}

function initTime(samples: readonly Sample[]): EnvoyProxyStats['initializationTimeMs'] {
  const h = readHistogram(samples, NAMES.initTime);
  if (!h || h.sum === null || h.count === null) return null;
  return {
    sum: h.sum,
    count: h.count,
    mean: h.count > 0 ? h.sum / h.count : null,
    p50: histogramQuantile(0.5, h.buckets),
  };
}

/** The per-proxy figures meshdx shows, from a :15090 or :15020 Prometheus scrape. */
export function envoyProxyStats(samples: readonly Sample[]): EnvoyProxyStats {
  const state = gauge(samples, NAMES.serverState);
  return {
    activeClusters: gauge(samples, NAMES.activeClusters),
    warmingClusters: gauge(samples, NAMES.warmingClusters),
    listenersActive: gauge(samples, NAMES.listenersActive),
    memoryAllocatedBytes: gauge(samples, NAMES.memoryAllocated),
    serverState:
      state === null ? null : { value: state, name: SERVER_STATES[state] ?? `UNKNOWN(${state})` },
    initializationTimeMs: initTime(samples),
    istioVersion: istioVersion(samples),
  };
}
