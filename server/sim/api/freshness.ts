import type { SimContext } from './context';
import { failure, type StatusObject } from './status';

/**
 * A list or watch asked for a resourceVersion the store has not reached yet. The API server's
 * watch cache waits a little for it (etcd may be ahead of the cache), then answers with
 * storage.NewTooLargeResourceVersionError: a 504 Timeout Status with a ResourceVersionTooLarge
 * cause and a retry hint. A watch gets it as its one ERROR event; a list as the response.
 */
export function tooLargeResourceVersion(asked: number, current: number): StatusObject {
  const s = failure(
    504,
    'Timeout',
    `Timeout: Too large resource version: ${asked}, current: ${current}`,
    {
      causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
      retryAfterSeconds: 1,
    },
  );
  return s;
}

/** Resolves true once the store reaches `rv`, false when it did not within the wait. */
export function waitForResourceVersion(ctx: SimContext, rv: number): Promise<boolean> {
  if (ctx.store.resourceVersion() >= rv) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      unsubscribe();
      resolve(ok);
    };
    const unsubscribe = ctx.store.subscribe(() => {
      if (ctx.store.resourceVersion() >= rv) done(true);
    });
    const timer = setTimeout(() => done(false), ctx.options.tooLargeResourceVersionWaitMs);
  });
}

/** A numeric resourceVersion parameter, or undefined for "" / "0" / absent (any version). */
export function minimumResourceVersion(param: string | null): number | undefined {
  if (param === null || param === '' || param === '0' || !/^\d+$/.test(param)) return undefined;
  return Number(param);
}
