import { runningRuntimes, runtimeFor } from '../../runtime/registry';
import { loadEnv } from '../../env';
import { processMemory } from '../../runtime/heap';
import { getClusterInfo } from './info';
import { snapshotHealth } from '../snapshots/snapshots';
import type { RequestScope } from '../../auth/identity';

/**
 * GET /api/health: liveness, the asked (or default) context's reachability, and for every
 * running runtime its watches and history store, so an operator can trust the history, and
 * what meshdx itself costs that API server (its request budget's counts), and the server's own
 * memory (what its pod's memory limit must hold).
 */
export async function getHealth(scope: RequestScope) {
  const cluster = await getClusterInfo(scope);
  if (cluster.source !== 'none') runtimeFor(scope);
  return {
    cluster,
    process: processMemory(loadEnv().MESHDX_HEAP_GROWTH_PERCENT),
    runtimes: runningRuntimes().map((rt) => ({
      context: rt.context,
      server: rt.source.server,
      watches: { pods: rt.pods.currentStatus, events: rt.events.currentStatus },
      history: { ...rt.history, recorder: rt.recorder.status() },
      /** Frozen views kept (Share): how many, since when, the limits they are kept by. */
      snapshots: snapshotHealth(rt),
      /** meshdx's own requests to this API server: by kind, throttled waits, 429s, retries. */
      api: rt.transport.budgetStats(),
      idleSeconds: Math.round((Date.now() - rt.lastUsed) / 1000),
    })),
  };
}
