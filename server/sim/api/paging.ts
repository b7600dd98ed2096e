import type { StoredEntry } from '../store/entry';
import { badRequest, failure, type StatusObject } from './status';

/**
 * `?limit=` and `?continue=` on lists, as kubectl (chunks of 500) and client-node page: a page
 * of at most `limit` objects in key order, and a continue token (resourceVersion of the first
 * page and the key to start after) while more remain. The simulator keeps no snapshots, so a
 * later page shows the current objects after that key; a token whose resourceVersion left the
 * watch cache is 410 Expired, as on a real API server.
 */
export interface Page {
  entries: StoredEntry[];
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
}

interface Token {
  v: 'meta.k8s.io/v1';
  rv: number;
  start: string;
}

const encode = (t: Token): string => Buffer.from(JSON.stringify(t)).toString('base64url');

function decode(raw: string): Token | undefined {
  try {
    const t = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Partial<Token>;
    if (t.v === 'meta.k8s.io/v1' && typeof t.rv === 'number' && typeof t.start === 'string') {
      return t as Token;
    }
  } catch {
    // not a token of ours
  }
  return undefined;
}

export function pageOf(
  matching: readonly StoredEntry[],
  query: URLSearchParams,
  currentRv: number,
  expired: (rv: number) => boolean,
): Page | StatusObject {
  const limitText = query.get('limit') ?? '';
  let limit = 0;
  if (limitText !== '') {
    if (!/^\d+$/.test(limitText)) return badRequest(`invalid limit "${limitText}"`);
    limit = Number(limitText);
  }
  const cont = query.get('continue') ?? '';
  let rv = currentRv;
  let from = 0;
  if (cont !== '') {
    const t = decode(cont);
    if (t === undefined) return badRequest('continue key is not valid: not a continue token');
    if (expired(t.rv)) {
      return failure(
        410,
        'Expired',
        'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.',
      );
    }
    rv = t.rv;
    from = matching.findIndex((e) => e.key > t.start);
    if (from < 0) from = matching.length;
  }
  if (limit === 0 || from + limit >= matching.length) {
    return { entries: matching.slice(from), resourceVersion: String(rv) };
  }
  const entries = matching.slice(from, from + limit);
  const last = entries[entries.length - 1];
  return {
    entries,
    resourceVersion: String(rv),
    continue: encode({ v: 'meta.k8s.io/v1', rv, start: last?.key ?? '' }),
    remainingItemCount: matching.length - from - limit,
  };
}
