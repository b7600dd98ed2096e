/**
 * Runs `fn` over `items` with at most `limit` calls in flight, reporting each completion. Results
 * keep the input order. `fn` must not throw (return failures as data); a throw is caught and
 * turned into the `onThrow` value so one bad item never stops the rest.
 *
 * With a `deadline` (a promise that settles when time is up), items not started by then are not
 * started and items still running are not waited for: both get the `late` value, so a view
 * answers on time with what it has and names what is missing.
 */
const LATE: unique symbol = Symbol('late');

export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
  opts: {
    onDone?: (result: R, index: number) => void;
    onThrow: (e: unknown, item: T) => R;
    deadline?: Promise<unknown>;
    late?: (item: T) => R;
  },
): Promise<R[]> {
  const results = new Array<R>(items.length);
  const settled = new Array<boolean>(items.length).fill(false);
  let next = 0;
  let expired = false;
  const deadline: Promise<typeof LATE> | undefined = opts.deadline?.then(
    () => LATE,
    () => LATE,
  );
  void deadline?.then(() => {
    expired = true;
  });
  const width = Math.max(1, Math.min(Math.floor(limit) || 1, items.length));
  async function worker(): Promise<void> {
    while (next < items.length && !expired) {
      const i = next++;
      const item = items[i] as T;
      let r: R | typeof LATE;
      try {
        const run = fn(item, i);
        r = deadline ? await Promise.race([run, deadline]) : await run;
      } catch (e) {
        r = opts.onThrow(e, item);
      }
      if (r === LATE) return;
      results[i] = r;
      settled[i] = true;
      opts.onDone?.(r, i);
    }
  }
  await Promise.all(Array.from({ length: width }, () => worker()));
  if (expired && opts.late) {
    for (let i = 0; i < items.length; i++) {
      if (!settled[i]) results[i] = opts.late(items[i] as T);
    }
  }
  return results;
}
