import {
  fromSourceIndex,
  IntervalTable,
  IntervalTableBuilder,
  type IntervalIdentity,
} from '../../lib/ledger/interval-table';

/**
 * The columns of the raw interval query, in order (see StoreReader.intervalRowsRaw): the
 * numbers a lookup reads, and who held the IP as one JSON array text, decoded only for the
 * intervals a lookup reports. One string per row instead of six: 50,000 intervals and more
 * are read for every `meshdx attribute` run.
 */
export const RAW_INTERVAL_SELECT =
  'SELECT ip, "from", from_source, deletion_started_at, grace_ends_at, gone_at, gone_uncertain, ' +
  'last_seen_at, json_array(namespace, name, uid, owner_kind, owner_name, node) FROM pod_intervals';

export interface LoadedIntervals {
  table: IntervalTable;
  /** Rows that were not interval rows (wrong column types): counted, not used. */
  skipped: number;
}

const num = (v: unknown): number | null =>
  typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : null;
const numOrNaN = (v: unknown): number =>
  typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : Number.NaN;
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** Raw rows of RAW_INTERVAL_SELECT (in any order) as an IntervalTable. */
export function intervalTableFromRows(rows: Iterable<unknown[]>): LoadedIntervals {
  const builder = new IntervalTableBuilder();
  let skipped = 0;
  for (const r of rows) {
    const ip = r[0];
    const from = num(r[1]);
    const identity = r[8];
    if (typeof ip !== 'string' || from === null || typeof identity !== 'string') {
      skipped++;
      continue;
    }
    builder.addRow(
      ip,
      from,
      fromSourceIndex(typeof r[2] === 'string' ? r[2] : ''),
      numOrNaN(r[3]),
      numOrNaN(r[4]),
      numOrNaN(r[5]),
      numOrNaN(r[6]) !== 0,
      numOrNaN(r[7]),
      identity,
    );
  }
  return { table: IntervalTable.from(builder, identityDecoder()), skipped };
}

/**
 * Decodes the json_array identity texts; owners are shared between the intervals of one
 * workload. A text that is not such an array (a damaged row) decodes as an unnamed pod.
 */
function identityDecoder(): (text: string) => IntervalIdentity {
  const owners = new Map<string, { kind: string; name: string }>();
  return (text) => {
    let a: unknown;
    try {
      a = JSON.parse(text);
    } catch {
      a = null;
    }
    const v = Array.isArray(a) ? (a as unknown[]) : [];
    const kind = str(v[3]);
    const ownerName = str(v[4]);
    let owner: { kind: string; name: string } | null = null;
    if (kind && ownerName) {
      const key = `${kind}\u0000${ownerName}`;
      owner = owners.get(key) ?? null;
      if (!owner) owners.set(key, (owner = { kind, name: ownerName }));
    }
    return {
      namespace: str(v[0]) ?? '',
      name: str(v[1]) ?? '',
      uid: str(v[2]),
      owner,
      node: str(v[5]),
    };
  };
}
