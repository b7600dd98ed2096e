/**
 * Runs `fn` over `items` with at most `limit` calls in flight, reporting each completion. Results
 * keep the input order. `fn` must not throw (return failures as data); a throw is caught and
 * turned into the `onThrow` value so one bad item never stops the rest.
 */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
  opts: { onDone?: (result: R, index: number) => void; onThrow: (e: unknown, item: T) => R },
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const width = Math.max(1, Math.min(Math.floor(limit) || 1, items.length));
  async function worker(): Promise<void> {
    while (next < items.length) {
      const i = next++;
      const item = items[i] as T;
      let r: R;
      try {
        r = await fn(item, i);
      } catch (e) {
        r = opts.onThrow(e, item);
      }
      results[i] = r;
      opts.onDone?.(r, i);
    }
  }
  await Promise.all(Array.from({ length: width }, () => worker()));
  return results;
}
