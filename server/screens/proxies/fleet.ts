import type { FleetProgress, FleetView } from '../../../lib/api/proxies';
import { pageFleet, type FleetQuery } from '../../../lib/proxies/page';
import { Memo } from '../../runtime/memo';
import { podListDetail } from '../deadline';
import { runtimeFor } from '../../runtime/registry';
import { defineScreen, type ClusterRuntime } from '../../runtime/runtime';
import { scanFleet, type ScanDeps, type SyncCache } from './scan';
import type { RequestScope } from '../../auth/identity';

/** A finished scan is served from memory this long, so navigating back is instant. */
export const FLEET_CACHE_MS = 15_000;

/** The fleet screen's state in a runtime: one scan at a time, its progress and its result. */
interface FleetState {
  memo: Memo<FleetView>;
  /** istiod's sync state, kept when it came in after its view answered. */
  sync: SyncCache;
  progress: FleetProgress;
  listeners: Set<(p: FleetProgress) => void>;
}

const fleetScreen = defineScreen<FleetState>('proxies-fleet', () => ({
  memo: new Memo<FleetView>(FLEET_CACHE_MS),
  sync: { value: null },
  progress: { type: 'progress', done: 0, total: 0, unreachable: 0 },
  listeners: new Set(),
}));

const stateOf = (rt: ClusterRuntime): FleetState => rt.screen(fleetScreen);

/** What a fleet scan of this runtime's cluster needs. */
export function scanDeps(rt: ClusterRuntime): ScanDeps {
  const s = rt.settings;
  return {
    transport: rt.transport,
    kc: rt.kc,
    istioNamespace: s.MESHDX_ISTIO_NAMESPACE,
    rootNamespace: () => rt.rootNamespace(),
    concurrency: s.MESHDX_PROXY_CONCURRENCY,
    timeoutMs: s.MESHDX_PROXY_TIMEOUT_MS,
    deadlineMs: s.MESHDX_VIEW_DEADLINE_MS,
    envoyInit: rt.envoyInit,
    prometheus: s.MESHDX_PROMETHEUS
      ? {
          url: s.MESHDX_PROMETHEUS,
          timeoutMs: Math.min(10_000, s.MESHDX_VIEW_DEADLINE_MS),
          maxAgeMs: s.MESHDX_PROMETHEUS_MAX_AGE_S * 1000,
        }
      : undefined,
    syncCache: stateOf(rt).sync,
    // the runtime's watch-fed pods: no list of every pod per scan
    pods: async () => {
      await rt.pods.whenListed();
      return rt.cache.livePods();
    },
    podsDetail: () => podListDetail(rt),
  };
}

/** The finished scan if it is fresh enough, else null (the page then streams a new one). */
export function cachedFleet(rt: ClusterRuntime, maxAgeMs = FLEET_CACHE_MS): FleetView | null {
  return stateOf(rt).memo.fresh(maxAgeMs);
}

/**
 * Starts a scan, or joins the one running (one scan at a time per cluster, whoever asks).
 * `onProgress` hears every step of it until it ends.
 */
export function fleetScan(
  rt: ClusterRuntime,
  onProgress?: (p: FleetProgress) => void,
  deps: ScanDeps = scanDeps(rt),
): { promise: Promise<FleetView>; progress: () => FleetProgress } {
  const s = stateOf(rt);
  const promise = s.memo.start(() => {
    s.progress = { type: 'progress', done: 0, total: 0, unreachable: 0 };
    return scanFleet(deps, (p) => {
      s.progress = p;
      for (const l of s.listeners) l(p);
    });
  });
  if (onProgress) {
    s.listeners.add(onProgress);
    onProgress(s.progress);
    void promise.catch(() => undefined).finally(() => s.listeners.delete(onProgress));
  }
  return { promise, progress: () => s.progress };
}

/**
 * The fleet: from the cache when fresh (and `refresh` not asked), else from a (joined) scan;
 * filtered, sorted and paged as the screen asked (aggregates stay whole).
 */
export async function getFleet(
  scope: RequestScope,
  opts: { refresh?: boolean; query?: FleetQuery } = {},
): Promise<FleetView> {
  const rt = runtimeFor(scope);
  const cached = opts.refresh ? null : cachedFleet(rt);
  const fleet = cached ?? (await fleetScan(rt).promise);
  return pageFleet(withApi(rt, fleet), opts.query ?? {});
}

/** The fleet with the runtime's request counts as they are now (not as when it was scanned). */
export function withApi(rt: ClusterRuntime, fleet: FleetView): FleetView {
  return { ...fleet, api: rt.transport.budgetStats() };
}
