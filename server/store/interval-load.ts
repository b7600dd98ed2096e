import type { PodInterval } from '../../lib/ledger/types';
import { toFromSource } from './rows';

/**
 * The columns of the raw interval query, in order (see StoreReader.intervalRowsRaw): raw
 * rows (arrays) cost a fraction of row objects for 50,000 intervals and more.
 */
export const RAW_INTERVAL_COLUMNS = [
  'ip',
  'namespace',
  'name',
  'uid',
  'owner_kind',
  'owner_name',
  'node',
  'from',
  'from_source',
  'deletion_started_at',
  'grace_ends_at',
  'gone_at',
  'gone_uncertain',
  'last_seen_at',
  'pod_key',
] as const;

export interface IntervalsByIp {
  byIp: Map<string, PodInterval[]>;
  count: number;
  /** Rows that were not interval rows (wrong column types): counted, not used. */
  skipped: number;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null =>
  typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : null;

/**
 * Groups raw interval rows (in any order) by IP, each IP's list sorted by start then pod key
 * (the order of `ORDER BY ip, "from", pod_key`). Repeated strings (namespaces, nodes, owners)
 * are shared, so that a large history holds each once.
 */
export function groupRawIntervals(rows: Iterable<unknown[]>): IntervalsByIp {
  const byIp = new Map<string, PodInterval[]>();
  const keys = new Map<PodInterval, string>();
  const strings = new Map<string, string>();
  const owners = new Map<string, { kind: string; name: string }>();
  const intern = (s: string | null): string | null => {
    if (s === null) return null;
    const had = strings.get(s);
    if (had !== undefined) return had;
    strings.set(s, s);
    return s;
  };
  let count = 0;
  let skipped = 0;
  for (const r of rows) {
    const [ip, namespace, name, uid, ownerKind, ownerName, node, from, fromSource] = r;
    const podKey = str(r[14]);
    const start = num(from);
    if (
      typeof ip !== 'string' ||
      typeof namespace !== 'string' ||
      typeof name !== 'string' ||
      start === null ||
      podKey === null
    ) {
      skipped++;
      continue;
    }
    let owner: { kind: string; name: string } | null = null;
    if (typeof ownerKind === 'string' && typeof ownerName === 'string' && ownerKind && ownerName) {
      const k = `${ownerKind}\u0000${ownerName}`;
      owner = owners.get(k) ?? null;
      if (!owner) owners.set(k, (owner = { kind: ownerKind, name: ownerName }));
    }
    const i: PodInterval = {
      ip,
      namespace: intern(namespace) as string,
      name,
      uid: str(uid),
      owner,
      node: intern(str(node)),
      from: start,
      fromSource: toFromSource(typeof fromSource === 'string' ? fromSource : ''),
      deletionStartedAt: num(r[9]),
      graceEndsAt: num(r[10]),
      goneAt: num(r[11]),
      goneUncertain: num(r[12]) !== 0,
      lastSeenAt: num(r[13]),
    };
    const list = byIp.get(ip);
    if (list) {
      list.push(i);
      keys.set(i, podKey);
    } else {
      byIp.set(ip, [i]);
      keys.set(i, podKey);
    }
    count++;
  }
  for (const list of byIp.values()) {
    if (list.length < 2) continue;
    list.sort((a, b) => {
      if (a.from !== b.from) return a.from - b.from;
      const ka = keys.get(a) as string;
      const kb = keys.get(b) as string;
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    });
  }
  return { byIp, count, skipped };
}
