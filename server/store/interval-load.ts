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

/** The store's pod key of an interval (see podKeyOf): uid, else namespace/name. */
const keyOf = (i: PodInterval): string => i.uid || `${i.namespace}/${i.name}`;

/**
 * Groups raw interval rows (in any order) by IP, each IP's list sorted by start then pod key
 * (the order of `ORDER BY ip, "from", pod_key`). Repeated strings (namespaces, nodes, owners)
 * are shared, so that a large history holds each once. Runs for every interval of the store
 * when the CLI attributes a log: kept to plain loops and few allocations.
 */
export function groupRawIntervals(rows: Iterable<unknown[]>): IntervalsByIp {
  const byIp = new Map<string, PodInterval[]>();
  const strings = new Map<string, string>();
  const owners = new Map<string, Map<string, { kind: string; name: string }>>();
  const intern = (s: string | null): string | null => {
    if (s === null) return null;
    const had = strings.get(s);
    if (had !== undefined) return had;
    strings.set(s, s);
    return s;
  };
  const ownerOf = (kind: unknown, name: unknown): { kind: string; name: string } | null => {
    if (typeof kind !== 'string' || typeof name !== 'string' || !kind || !name) return null;
    let byName = owners.get(kind);
    if (!byName) owners.set(kind, (byName = new Map()));
    let owner = byName.get(name);
    if (!owner) byName.set(name, (owner = { kind, name }));
    return owner;
  };
  let count = 0;
  let skipped = 0;
  for (const r of rows) {
    const ip = r[0];
    const namespace = r[1];
    const name = r[2];
    const start = num(r[7]);
    if (
      typeof ip !== 'string' ||
      typeof namespace !== 'string' ||
      typeof name !== 'string' ||
      start === null
    ) {
      skipped++;
      continue;
    }
    const fromSource = r[8];
    const i: PodInterval = {
      ip,
      namespace: intern(namespace) as string,
      name,
      uid: str(r[3]),
      owner: ownerOf(r[4], r[5]),
      node: intern(str(r[6])),
      from: start,
      fromSource: toFromSource(typeof fromSource === 'string' ? fromSource : ''),
      deletionStartedAt: num(r[9]),
      graceEndsAt: num(r[10]),
      goneAt: num(r[11]),
      goneUncertain: num(r[12]) !== 0,
      lastSeenAt: num(r[13]),
    };
    const list = byIp.get(ip);
    if (list) list.push(i);
    else byIp.set(ip, [i]);
    count++;
  }
  for (const list of byIp.values()) {
    if (list.length < 2) continue;
    list.sort((a, b) => {
      if (a.from !== b.from) return a.from - b.from;
      const ka = keyOf(a);
      const kb = keyOf(b);
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    });
  }
  return { byIp, count, skipped };
}
