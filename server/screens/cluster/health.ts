import { runningRuntimes, runtimeFor } from '../../runtime/registry';
import { loadEnv } from '../../env';
import { processMemory } from '../../runtime/heap';
import { getClusterInfo } from './info';

/**
 * GET /api/health: liveness, the asked (or default) context's reachability, and for every
 * running runtime its watches and history store, so an operator can trust the history, and
 * what meshdx itself costs that API server (its request budget's counts), and the server's own
 * memory (what its pod's memory limit must hold).
 */
export async function getHealth(context: string | null) {
  const cluster = await getClusterInfo(context);
  if (cluster.source !== 'none') runtimeFor(context);
  return {
    cluster,
    process: processMemory(loadEnv().MESHDX_HEAP_GROWTH_PERCENT),
    runtimes: runningRuntimes().map((rt) => ({
      context: rt.context,
      server: rt.source.server,
      watches: { pods: rt.pods.currentStatus, events: rt.events.currentStatus },
      history: { ...rt.history, recorder: rt.recorder.status() },
      /** meshdx's own requests to this API server: by kind, throttled waits, 429s, retries. */
      api: rt.transport.budgetStats(),
      idleSeconds: Math.round((Date.now() - rt.lastUsed) / 1000),
    })),
  };
}
