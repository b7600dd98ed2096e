/**
 * istiod's /debug/syncz (one JSON array per replica, rows only for the proxies connected to it)
 * turned into istioctl proxy-status states per xDS type.
 */
import { synczRowsFromBytes } from './syncz-bytes';
import { XDS_FIELDS, XDS_STATES, XDS_TYPES, xdsStateCode } from './xds-state';

/** Shared (frozen) between the proxies of one replica with the same states: never to be changed. */
export interface ProxySync {
  istiod: string;
  state: string;
  types: Readonly<Record<string, string>>;
}

export interface SyncParse {
  /** Keyed by `POD.NAMESPACE` as istiod names proxies. */
  byProxy: Map<string, ProxySync>;
  errors: string[];
}

/** istioctl's xdsStatus. */
export function xdsStatus(sent: string | undefined, acked: string | undefined): string {
  return XDS_STATES[stateCode(sent, acked)] as string;
}

const RANK: Record<string, number> = {
  SYNCED: 0,
  'NOT SENT': 1,
  STALE: 2,
  'STALE (Never Acknowledged)': 3,
};

/** The worst state of the types a proxy was sent (NOT SENT alone is not a problem). */
export function worstState(types: Readonly<Record<string, string>>): string {
  let worst = 'SYNCED';
  for (const s of Object.values(types)) if ((RANK[s] ?? 0) > (RANK[worst] ?? 0)) worst = s;
  return worst;
}

/** xdsStatus's answer as its index in XDS_STATES. */
function stateCode(sent: string | undefined, acked: string | undefined): number {
  return xdsStateCode(!sent, !acked, sent === acked);
}

/**
 * The per-type states of a states code, frozen: parseSyncz makes one per replica and code, so at
 * 20,000 proxies, nearly all of them all SYNCED, a handful of records stand for every proxy.
 */
function typesOf(code: number): Readonly<Record<string, string>> {
  const fresh: Record<string, string> = {};
  XDS_TYPES.forEach(([label], i) => (fresh[label] = XDS_STATES[(code >> (2 * i)) & 3] as string));
  return Object.freeze(fresh);
}

const optionalString = (v: unknown): v is string | undefined =>
  v === undefined || typeof v === 'string';

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Reads one replica's /debug/syncz body; bad rows are counted in errors, never dropped silently.
 * Rows are checked field by field (not with a schema per row): the body lists every proxy. A
 * body given as bytes is read from them where it is plain (synczRowsFromBytes), else decoded
 * and read as JSON like a text body: the same answer either way.
 */
export function parseSyncz(istiod: string, body: string | Uint8Array, into?: SyncParse): SyncParse {
  const out: SyncParse = into ?? { byProxy: new Map(), errors: [] };
  // one record per replica and states code: rows with the same states share it (read-only)
  const shared: (ProxySync | undefined)[] = [];
  const syncOf = (code: number): ProxySync => {
    let sync = shared[code];
    if (!sync) {
      const types = typesOf(code);
      sync = Object.freeze({ istiod, state: worstState(types), types });
      shared[code] = sync;
    }
    return sync;
  };
  if (typeof body !== 'string') {
    const rows = synczRowsFromBytes(body);
    if (rows) {
      for (let i = 0; i < rows.proxies.length; i++)
        out.byProxy.set(rows.proxies[i] as string, syncOf(rows.codes[i] as number));
      return out;
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(typeof body === 'string' ? body : utf8.decode(body));
  } catch {
    out.errors.push(`${istiod}: /debug/syncz did not return JSON`);
    return out;
  }
  if (!Array.isArray(value)) {
    out.errors.push(`${istiod}: /debug/syncz is not a list`);
    return out;
  }
  const rows = value as unknown[];
  for (let i = 0; i < rows.length; i++) {
    const raw = rows[i];
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      out.errors.push(`${istiod}: /debug/syncz[${i}] is not an object`);
      continue;
    }
    const row = raw as Record<string, unknown>;
    if (typeof row.proxy !== 'string') {
      out.errors.push(`${istiod}: /debug/syncz[${i}] has no proxy id`);
      continue;
    }
    let code = 0;
    let bad: string | null = null;
    for (let k = 0; k < XDS_FIELDS.length; k++) {
      const [sentKey, ackedKey] = XDS_FIELDS[k] as readonly [string, string];
      const sent = row[sentKey];
      const acked = row[ackedKey];
      if (!optionalString(sent) || !optionalString(acked)) {
        bad = (XDS_TYPES[k] as readonly [string, string])[1];
        break;
      }
      code |= stateCode(sent, acked) << (2 * k);
    }
    if (bad !== null) {
      out.errors.push(`${istiod}: /debug/syncz[${i}] ${bad}_sent/${bad}_acked is not a string`);
      continue;
    }
    out.byProxy.set(row.proxy, syncOf(code));
  }
  return out;
}
