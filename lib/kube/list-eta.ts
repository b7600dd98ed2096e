/**
 * When a paged list will be done, projected from how fast its pages have come so far: a view
 * that waits a little for a list to finish (a first answer after a restart) need not wait at all
 * for one that, at this pace, is still seconds away from its end.
 */
export interface ListPace {
  /** Objects read so far. */
  objects: number;
  /** The server's count of what remains (remainingItemCount), null when it does not say. */
  remaining: number | null;
  /** When the list was started (ms since the epoch), null before. */
  startedAt: number | null;
}

/**
 * Milliseconds from `now` until the list is projected to end at its pace so far, or null when
 * that cannot be told (not started, no page read yet, or the server gives no remaining count).
 */
export function listEtaMs(pace: ListPace, now: number): number | null {
  const { objects, remaining, startedAt } = pace;
  if (startedAt === null || remaining === null || objects <= 0) return null;
  if (remaining <= 0) return 0;
  const elapsed = Math.max(1, now - startedAt);
  return Math.round((remaining * elapsed) / objects);
}

/**
 * Whether the list, at its pace so far, will still be running at `until` (ms since the epoch):
 * false while that cannot be told.
 */
export function listEndsAfter(pace: ListPace, now: number, until: number): boolean {
  const eta = listEtaMs(pace, now);
  return eta !== null && now + eta > until;
}
