/**
 * Snapshots' edge: Share's freeze of a view (POST /api/snapshots), and the wire types the list,
 * the banner and a frozen page read. The list and a snapshot's page are rendered on the server
 * (app/(views)/snapshots/), with no query.
 */
import { withContext } from '../../lib/api/context';
import type { SnapshotInfo, SnapshotView } from '../../lib/api/snapshots';

export type { SnapshotInfo, SnapshotList, SnapshotView } from '../../lib/api/snapshots';
export type { TimelinePagedFleet } from '../../lib/api/timelines';

/** What a freeze came back as: the snapshot made, or why not (the server's message and hint). */
export type FreezeAnswer = { ok: true; info: SnapshotInfo } | { ok: false; message: string };

/**
 * Freezes `view` as the page's query (without `?context=`) shows it now on `context`. Throws when
 * the server cannot be reached.
 */
export async function requestSnapshot(
  context: string | null,
  view: SnapshotView,
  query: string,
): Promise<FreezeAnswer> {
  const res = await fetch(withContext('/api/snapshots', context), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ view, query }),
  });
  const data = (await res.json().catch(() => null)) as
    SnapshotInfo | { error?: { message?: string; hint?: string } } | null;
  if (!res.ok || data === null || !('id' in data)) {
    const err = data && 'error' in data ? data.error : undefined;
    return {
      ok: false,
      message: `${err?.message ?? `the server answered ${res.status}`}${err?.hint ? ` ${err.hint}` : ''}`,
    };
  }
  return { ok: true, info: data };
}
