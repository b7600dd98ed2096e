import { checked, COUNT, DURATION_MS, MEMORY_BYTES, type Implausible } from '../plausible/checks';
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
  /** Figures that were read but cannot be (their field above is null): shown with the raw value. */
  implausible: Implausible[];
}

export const ENVOY_STAT_NAMES = {
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
  const h = readHistogram(samples, ENVOY_STAT_NAMES.initTime);
  if (!h || h.sum === null || h.count === null) return null;
  return {
    sum: h.sum,
    count: h.count,
    mean: h.count > 0 ? h.sum / h.count : null,
    p50: histogramQuantile(0.5, h.buckets),
  };
}

/** The per-proxy figures meshdx shows, from a :15090 or :15020 Prometheus scrape, checked. */
export function envoyProxyStats(samples: readonly Sample[]): EnvoyProxyStats {
  const state = gauge(samples, ENVOY_STAT_NAMES.serverState);
  return checkEnvoyProxyStats({
    activeClusters: gauge(samples, ENVOY_STAT_NAMES.activeClusters),
    warmingClusters: gauge(samples, ENVOY_STAT_NAMES.warmingClusters),
    listenersActive: gauge(samples, ENVOY_STAT_NAMES.listenersActive),
    memoryAllocatedBytes: gauge(samples, ENVOY_STAT_NAMES.memoryAllocated),
    serverState:
      state === null ? null : { value: state, name: SERVER_STATES[state] ?? `UNKNOWN(${state})` },
    initializationTimeMs: initTime(samples),
    istioVersion: istioVersion(samples),
    implausible: [],
  });
}

/** A server state Envoy can be in, else null (noted in `bad`). */
function knownState(
  state: EnvoyProxyStats['serverState'],
  bad: Implausible[],
): EnvoyProxyStats['serverState'] {
  if (state === null || SERVER_STATES[state.value] !== undefined) return state;
  bad.push({
    figure: ENVOY_STAT_NAMES.serverState,
    raw: String(state.value),
    reason: 'a server state is 0 (LIVE), 1 (DRAINING), 2 (PRE_INITIALIZING) or 3 (INITIALIZING)',
  });
  return null;
}

/**
 * The figures as read (a scrape, or Prometheus's series) checked against what can exist: counts
 * are whole numbers from 0, memory at most 1 TiB, the start-up time a duration. A figure that
 * cannot be is null here and listed in `implausible` with its raw value (never used as a fact).
 */
export function checkEnvoyProxyStats(s: EnvoyProxyStats): EnvoyProxyStats {
  const bad: Implausible[] = [...s.implausible];
  const n = ENVOY_STAT_NAMES;
  const init = s.initializationTimeMs;
  const initChecked =
    init === null
      ? null
      : (() => {
          const before = bad.length;
          checked(`${n.initTime}_sum`, init.sum, DURATION_MS, bad);
          checked(`${n.initTime}_count`, init.count, COUNT, bad);
          return bad.length === before ? init : null;
        })();
  return {
    ...s,
    activeClusters: checked(n.activeClusters, s.activeClusters, COUNT, bad),
    warmingClusters: checked(n.warmingClusters, s.warmingClusters, COUNT, bad),
    listenersActive: checked(n.listenersActive, s.listenersActive, COUNT, bad),
    memoryAllocatedBytes: checked(n.memoryAllocated, s.memoryAllocatedBytes, MEMORY_BYTES, bad),
    serverState: knownState(s.serverState, bad),
    initializationTimeMs: initChecked,
    implausible: bad,
  };
}
