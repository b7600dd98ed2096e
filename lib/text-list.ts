/**
 * The first `max` items joined by ", ", then "and N more" for the rest: a sentence that names a
 * few of many (workloads, hosts, nodes) stays a sentence. `total` counts items the caller did
 * not keep (it kept only the first few of a long list); it is never less than the items given.
 */
export function firstAndMore(items: readonly string[], max: number, total = items.length): string {
  const head = items.slice(0, max).join(', ');
  const rest = Math.max(total, items.length) - Math.min(max, items.length);
  return rest > 0 ? `${head} and ${rest} more` : head;
}

/** `n noun` with the noun in the plural unless n is 1 ("1 error", "3 kinds"). */
export function counted(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}
