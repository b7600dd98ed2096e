import type { FleetProgress, FleetView } from '../../lib/api/proxies';
import { proxyFanout } from '../wiring';
import { scanFleet, type ScanDeps } from './proxies-scan';

/** A finished scan is served from memory this long, so navigating back is instant. */
export const FLEET_CACHE_MS = 15_000;

interface Job {
  startedAt: number;
  progress: { current: FleetProgress };
  listeners: Set<(p: FleetProgress) => void>;
  promise: Promise<FleetView>;
}

interface FleetState {
  job?: Job;
  done?: { at: number; fleet: FleetView };
}

const holder = globalThis as typeof globalThis & { __meshdxFleet?: FleetState };
const state = (): FleetState => (holder.__meshdxFleet ??= {});

function depsFromWiring(): ScanDeps {
  return proxyFanout();
}

/** The finished scan if it is fresh enough, else null (the page then streams a new one). */
export function cachedFleet(maxAgeMs = FLEET_CACHE_MS): FleetView | null {
  const d = state().done;
  return d && Date.now() - d.at < maxAgeMs ? d.fleet : null;
}

/**
 * Starts a scan, or joins the one running (one scan at a time per process, whoever asks).
 * `onProgress` hears every step of it until it ends.
 */
export function fleetScan(
  onProgress?: (p: FleetProgress) => void,
  deps: () => ScanDeps = depsFromWiring,
): { promise: Promise<FleetView>; progress: () => FleetProgress } {
  const s = state();
  let job = s.job;
  if (!job) {
    const d = deps();
    const listeners = new Set<(p: FleetProgress) => void>();
    const progress: { current: FleetProgress } = {
      current: { type: 'progress', done: 0, total: 0, unreachable: 0 },
    };
    const promise = scanFleet(d, (p) => {
      progress.current = p;
      for (const l of listeners) l(p);
    })
      .then((fleet) => {
        s.done = { at: Date.now(), fleet };
        return fleet;
      })
      .finally(() => {
        if (s.job?.promise === promise) s.job = undefined;
      });
    job = { startedAt: Date.now(), progress, listeners, promise };
    s.job = job;
  }
  const j = job;
  if (onProgress) {
    j.listeners.add(onProgress);
    onProgress(j.progress.current);
    void j.promise.catch(() => undefined).finally(() => j.listeners.delete(onProgress));
  }
  return { promise: j.promise, progress: () => j.progress.current };
}

/** The fleet: from the cache when fresh (and `refresh` not asked), else from a (joined) scan. */
export async function getFleet(opts: { refresh?: boolean } = {}): Promise<FleetView> {
  const cached = opts.refresh ? null : cachedFleet();
  return cached ?? fleetScan().promise;
}
