/**
 * Requests that need attribution but have no time: an IP is matched to a pod on (ip, time),
 * never on the IP alone (pod IPs are reused), so such a request cannot be attributed. They
 * are counted and their line numbers kept (the first ones), never dropped silently: lines
 * without the leading start time (pasted from docs, cut by a log shipper) are the usual cause.
 */
export interface UntimedLines {
  count: number;
  /** The first line numbers, in input order. */
  lines: number[];
}

export const MAX_UNTIMED_LISTED = 1000;

export function emptyUntimed(): UntimedLines {
  return { count: 0, lines: [] };
}

export function noteUntimed(u: UntimedLines, line: number, max = MAX_UNTIMED_LISTED): void {
  u.count++;
  if (u.lines.length < max) u.lines.push(line);
}

/** Adds a later part's tally (its line numbers counted from `offset` + 1). */
export function mergeUntimed(
  total: UntimedLines,
  part: UntimedLines,
  offset: number,
  max = MAX_UNTIMED_LISTED,
): void {
  total.count += part.count;
  for (const line of part.lines) if (total.lines.length < max) total.lines.push(line + offset);
}

/** One sentence for a person: how many, which lines (the first few), and why it matters. */
export function describeUntimed(u: UntimedLines, shown = 10): string | null {
  if (u.count === 0) return null;
  const list = u.lines.slice(0, shown).join(', ');
  const more = u.count > shown ? `, ... (${u.count - shown} more)` : '';
  return `${u.count} request${u.count === 1 ? '' : 's'} to attribute had no time (line${u.count === 1 ? '' : 's'} ${list}${more}): attribution needs the request's time, because pod IPs are reused; capture the log with its start times (Istio's default format, or kubectl logs --timestamps)`;
}
