/**
 * Starts the watch-fed cluster cache at server start (instrumentation.ts), best effort: a cluster
 * that is not configured or not reachable yet is logged and retried, never a crash. Once the
 * first lists are done the cache's own watches keep it current (with their own backoff).
 */

export interface StartableCache {
  ready(): Promise<void>;
}

export interface CacheStartOptions {
  /** The cache to start; may throw (e.g. no kubeconfig yet). */
  cache: () => StartableCache;
  /** Delay between attempts (ms). Default 10 s. */
  retryMs?: number;
  log?: (message: string) => void;
}

export interface CacheStart {
  /** Settles when the cache is ready (never rejects; stays pending while retrying). */
  ready: Promise<void>;
  status(): { ready: boolean; attempts: number; lastError: string | null };
  stop(): void;
}

export function startClusterCache(opts: CacheStartOptions): CacheStart {
  const retryMs = opts.retryMs ?? 10_000;
  const log = opts.log ?? ((m: string) => console.warn(m));
  let attempts = 0;
  let lastError: string | null = null;
  let done = false;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let settle: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    settle = resolve;
  });

  const fail = (e: unknown): void => {
    const msg = e instanceof Error ? e.message : String(e);
    // say it once per distinct error, not every 10 seconds
    if (msg !== lastError)
      log(`meshdx: cluster cache not started yet (retrying every ${retryMs / 1000}s): ${msg}`);
    lastError = msg;
    if (stopped) return;
    timer = setTimeout(attempt, retryMs);
    timer.unref();
  };

  function attempt(): void {
    timer = null;
    if (stopped) return;
    attempts++;
    let cache: StartableCache;
    try {
      cache = opts.cache();
    } catch (e) {
      fail(e);
      return;
    }
    cache.ready().then(() => {
      done = true;
      if (lastError) log('meshdx: cluster cache started');
      lastError = null;
      settle();
    }, fail);
  }

  attempt();
  return {
    ready,
    status: () => ({ ready: done, attempts, lastError }),
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      settle();
    },
  };
}
