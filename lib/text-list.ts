/**
 * The first `max` items joined by ", ", then "and N more" for the rest: a sentence that names a
 * few of many (workloads, hosts, nodes) stays a sentence.
 */
export function firstAndMore(items: readonly string[], max: number): string {
  const head = items.slice(0, max).join(', ');
  return items.length > max ? `${head} and ${items.length - max} more` : head;
}
