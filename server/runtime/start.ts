/**
 * At server start (instrumentation.ts), the default context's runtime is started so that its
 * history recorder runs from the first second, best effort: a cluster that is not configured or
 * not reachable yet is logged (once per distinct error) and retried, never a crash. Once
 * started, the runtime's watches retry on their own.
 */
import { baseRuntimeFor } from './registry';
import type { ClusterRuntime } from './runtime';

export interface StartOptions {
  /** Delay between attempts to configure the default context (ms). Default 10 s. */
  retryMs?: number;
  log?: (message: string) => void;
  /** Told of the default runtime once it is made (what starts with it: the layer sampler). */
  onRuntime?: (rt: ClusterRuntime) => void;
}

export function startDefaultRuntime(opts: StartOptions = {}): { stop(): void } {
  const retryMs = opts.retryMs ?? 10_000;
  const log = opts.log ?? ((m: string) => console.warn(m));
  let lastError: string | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const attempt = (): void => {
    timer = null;
    if (stopped) return;
    try {
      const rt = baseRuntimeFor(null);
      if (lastError) log(`meshdx: cluster ${rt.context} configured`);
      opts.onRuntime?.(rt);
      rt.pods.whenListed().then(
        () => undefined,
        (e: unknown) =>
          log(
            `meshdx: ${rt.context} not listed yet (its watches keep retrying): ${e instanceof Error ? e.message : String(e)}`,
          ),
      );
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      if (msg !== lastError)
        log(`meshdx: no cluster yet (retrying every ${retryMs / 1000}s): ${msg}`);
      lastError = msg;
      timer = setTimeout(attempt, retryMs);
      timer.unref();
    }
  };
  attempt();
  return {
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
