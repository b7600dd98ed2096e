import {
  FROM_SOURCES,
  IntervalTable,
  IntervalTableBuilder,
  type IntervalIdentity,
  type KeyJson,
} from '../../lib/ledger/interval-table';

/**
 * A number column as text for the batch lines: an integer's digits, a real with every digit a
 * double needs, '' for anything else (NULL, or a damaged row's text or blob).
 */
const numberText = (column: string): string =>
  `CASE typeof(${column}) WHEN 'integer' THEN ${column} WHEN 'real' THEN printf('%!.17g', ${column}) ELSE '' END`;

/**
 * One interval as one line of tab-separated fields: the IP as a JSON string ('' when it is no
 * text), the numbers a lookup reads (see numberText), the start's source as its
 * fromSourceIndex, gone_uncertain as 0 or 1, and who held the IP as one JSON array text,
 * decoded only for the intervals a lookup reports. JSON texts hold no raw tab or newline.
 */
const INTERVAL_LINE = [
  `CASE WHEN typeof(ip) = 'text' THEN json_quote(ip) ELSE '' END`,
  numberText('"from"'),
  // fromSourceIndex in SQL
  `CASE from_source ${FROM_SOURCES.map((src, k) => `WHEN '${src}' THEN ${k}`).join(' ')} ELSE ${FROM_SOURCES.length - 1} END`,
  numberText('deletion_started_at'),
  numberText('grace_ends_at'),
  numberText('gone_at'),
  `CASE WHEN typeof(gone_uncertain) IN ('integer', 'real') AND gone_uncertain = 0 THEN 0 ELSE 1 END`,
  numberText('last_seen_at'),
  'json_array(namespace, name, uid, owner_kind, owner_name, node)',
].join(' || char(9) || ');

/**
 * The intervals after rowid ?1, at most ?2 of them, as [last rowid, rows, lines joined by
 * '\n']. A store's whole history (50,000 intervals and more) is read for every `meshdx
 * attribute` run: SQLite writes a batch as one text, which is read here in a fraction of the
 * time that stepping through it row by row takes.
 */
export const INTERVAL_TEXT_BATCH =
  `SELECT max(r), count(*), group_concat(line, char(10)) FROM ` +
  `(SELECT rowid AS r, ${INTERVAL_LINE} AS line FROM pod_intervals WHERE rowid > ? ORDER BY rowid LIMIT ?)`;

export interface LoadedIntervals {
  table: IntervalTable;
  /** Rows that were not interval rows (no text IP, no numeric start): counted, not used. */
  skipped: number;
}

/** The number of s[a, b) as numberText wrote it; NaN for ''. */
function numberAt(s: string, a: number, b: number): number {
  if (a === b || b - a > 15) return a === b ? Number.NaN : Number(s.slice(a, b));
  let v = 0;
  for (let i = a; i < b; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return Number(s.slice(a, b)); // a sign, a fraction, an exponent
    v = v * 10 + d;
  }
  return v;
}

/** The IP of a line: its JSON string, without a parse for the usual one without escapes. */
function ipAt(s: string, a: number, b: number): string | null {
  if (b - a < 2) return null;
  const inner = s.slice(a + 1, b - 1);
  if (!inner.includes('\\')) return inner;
  const v: unknown = JSON.parse(s.slice(a, b));
  return typeof v === 'string' ? v : null;
}

/** Batches of INTERVAL_TEXT_BATCH lines (in any row order) as an IntervalTable. */
export function intervalTableFromText(batches: Iterable<string>): LoadedIntervals {
  const builder = new IntervalTableBuilder();
  const f = new Float64Array(7);
  let skipped = 0;
  for (const text of batches) {
    const n = text.length;
    let p = 0;
    while (p < n) {
      let end = text.indexOf('\n', p);
      if (end < 0) end = n;
      // fields 0..7 end at tabs; the identity runs to the end of the line
      let q = p;
      let ip: string | null = null;
      let k = 0;
      for (; k < 8; k++) {
        const t = text.indexOf('\t', q);
        if (t < 0 || t >= end) break;
        if (k === 0) ip = ipAt(text, q, t);
        else f[k - 1] = numberAt(text, q, t);
        q = t + 1;
      }
      const from = f[0] as number;
      if (k < 8 || ip === null || Number.isNaN(from)) skipped++;
      else
        builder.addRow(
          ip,
          from,
          f[1] as number,
          f[2] as number,
          f[3] as number,
          f[4] as number,
          f[5] !== 0,
          f[6] as number,
          text.slice(q, end),
        );
      p = end + 1;
    }
  }
  return { table: IntervalTable.from(builder, { decode: identityDecoder(), keyJson }), skipped };
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/**
 * The values of a json_array text of strings and nulls without escapes, read without
 * JSON.parse (the usual identity: one is decoded per holder a lookup reports); null for
 * anything else, which JSON.parse then reads.
 */
function plainArray(text: string): (string | null)[] | null {
  const n = text.length;
  if (text.charCodeAt(0) !== 91 /* [ */ || text.charCodeAt(n - 1) !== 93 /* ] */) return null;
  const out: (string | null)[] = [];
  let p = 1;
  while (p < n - 1) {
    if (text.charCodeAt(p) === 34 /* " */) {
      const close = text.indexOf('"', p + 1);
      if (close < 0) return null;
      const value = text.slice(p + 1, close);
      if (value.includes('\\')) return null;
      out.push(value);
      p = close + 1;
    } else if (text.startsWith('null', p)) {
      out.push(null);
      p += 4;
    } else return null;
    const c = text.charCodeAt(p);
    if (c === 44 /* , */) p++;
    else if (p !== n - 1) return null;
  }
  return out;
}

/**
 * The first three values of a json_array identity (namespace, name, uid) as the JSON texts
 * JSON.stringify writes, from plainArray's values: a string SQLite wrote without a backslash
 * holds no quote, backslash or control character, so JSON.stringify writes it between quotes
 * as it is (and text read from SQLite holds no lone surrogate). Anything else: null (decoded).
 */
function keyJson(text: string): KeyJson | null {
  const v = plainArray(text);
  if (v === null || v.length < 3) return null;
  const [namespace, name, uid] = v;
  if (namespace == null || name == null) return null;
  return [`"${namespace}"`, `"${name}"`, uid == null ? 'null' : `"${uid}"`];
}

/**
 * Decodes the json_array identity texts; owners are shared between the intervals of one
 * workload. A text that is not such an array (a damaged row) decodes as an unnamed pod.
 */
function identityDecoder(): (text: string) => IntervalIdentity {
  const owners = new Map<string, Map<string, { kind: string; name: string }>>();
  return (text) => {
    let v: unknown[] | null = plainArray(text);
    if (v === null) {
      let a: unknown;
      try {
        a = JSON.parse(text);
      } catch {
        a = null;
      }
      v = Array.isArray(a) ? (a as unknown[]) : [];
    }
    const kind = str(v[3]);
    const ownerName = str(v[4]);
    let owner: { kind: string; name: string } | null = null;
    if (kind && ownerName) {
      let ofKind = owners.get(kind);
      if (!ofKind) owners.set(kind, (ofKind = new Map()));
      owner = ofKind.get(ownerName) ?? null;
      if (!owner) ofKind.set(ownerName, (owner = { kind, name: ownerName }));
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
