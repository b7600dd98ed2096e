import type { FleetProgress, FleetView } from '../../../lib/api/proxies';
import { Memo } from '../../runtime/memo';
import { runtimeFor } from '../../runtime/registry';
import type { ClusterRuntime } from '../../runtime/runtime';
import { scanFleet, type ScanDeps } from './scan';

/** A finished scan is served from memory this long, so navigating back is instant. */
export const FLEET_CACHE_MS = 15_000;

/** The fleet screen's state in a runtime: one scan at a time, its progress and its result. */
interface FleetState {
  memo: Memo<FleetView>;
  progress: FleetProgress;
  listeners: Set<(p: FleetProgress) => void>;
}

const stateOf = (rt: ClusterRuntime): FleetState =>
  rt.screen('proxies-fleet', () => ({
    memo: new Memo<FleetView>(FLEET_CACHE_MS),
    progress: { type: 'progress', done: 0, total: 0, unreachable: 0 },
    listeners: new Set(),
  }));

/** What a fleet scan of this runtime's cluster needs. */
export function scanDeps(rt: ClusterRuntime): ScanDeps {
  return {
    transport: rt.transport,
    kc: rt.kc,
    istioNamespace: rt.settings.MESHDX_ISTIO_NAMESPACE,
    concurrency: rt.settings.MESHDX_PROXY_CONCURRENCY,
    timeoutMs: rt.settings.MESHDX_PROXY_TIMEOUT_MS,
    envoyInit: rt.envoyInit,
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

/** The fleet: from the cache when fresh (and `refresh` not asked), else from a (joined) scan. */
export async function getFleet(
  context: string | null,
  opts: { refresh?: boolean } = {},
): Promise<FleetView> {
  const rt = runtimeFor(context);
  const cached = opts.refresh ? null : cachedFleet(rt);
  return cached ?? fleetScan(rt).promise;
}
