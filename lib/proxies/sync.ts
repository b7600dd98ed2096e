/**
 * istiod's /debug/syncz (one JSON array per replica, rows only for the proxies connected to it)
 * turned into istioctl proxy-status states per xDS type.
 */
export interface ProxySync {
  istiod: string;
  state: string;
  /** Shared between proxies with the same states: never to be changed. */
  types: Readonly<Record<string, string>>;
}

export interface SyncParse {
  /** Keyed by `POD.NAMESPACE` as istiod names proxies. */
  byProxy: Map<string, ProxySync>;
  errors: string[];
}

const TYPES = [
  ['CDS', 'cluster'],
  ['LDS', 'listener'],
  ['RDS', 'route'],
  ['EDS', 'endpoint'],
] as const;

/** istioctl's xdsStatus. */
export function xdsStatus(sent: string | undefined, acked: string | undefined): string {
  if (!sent) return 'NOT SENT';
  if (sent === acked) return 'SYNCED';
  if (!acked) return 'STALE (Never Acknowledged)';
  return 'STALE';
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

/**
 * The per-type states of one row, shared between rows with the same states: at 20,000 proxies
 * nearly every row is all SYNCED, so a handful of frozen records stand for every proxy.
 */
const typesByStates = new Map<string, Readonly<Record<string, string>>>();

function sharedTypes(states: readonly string[]): Readonly<Record<string, string>> {
  const key = states.join('|');
  let t = typesByStates.get(key);
  if (!t) {
    const fresh: Record<string, string> = {};
    TYPES.forEach(([label], i) => (fresh[label] = states[i] ?? 'NOT SENT'));
    t = Object.freeze(fresh);
    typesByStates.set(key, t);
  }
  return t;
}

const optionalString = (v: unknown): v is string | undefined =>
  v === undefined || typeof v === 'string';

/**
 * Reads one replica's /debug/syncz body; bad rows are counted in errors, never dropped silently.
 * Rows are checked field by field (not with a schema per row): the body lists every proxy.
 */
export function parseSyncz(istiod: string, body: string, into?: SyncParse): SyncParse {
  const out: SyncParse = into ?? { byProxy: new Map(), errors: [] };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    out.errors.push(`${istiod}: /debug/syncz did not return JSON`);
    return out;
  }
  if (!Array.isArray(value)) {
    out.errors.push(`${istiod}: /debug/syncz is not a list`);
    return out;
  }
  const states: string[] = [];
  (value as unknown[]).forEach((raw, i) => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      out.errors.push(`${istiod}: /debug/syncz[${i}] is not an object`);
      return;
    }
    const row = raw as Record<string, unknown>;
    if (typeof row.proxy !== 'string') {
      out.errors.push(`${istiod}: /debug/syncz[${i}] has no proxy id`);
      return;
    }
    states.length = 0;
    for (const [, key] of TYPES) {
      const sent = row[`${key}_sent`];
      const acked = row[`${key}_acked`];
      if (!optionalString(sent) || !optionalString(acked)) {
        out.errors.push(`${istiod}: /debug/syncz[${i}] ${key}_sent/${key}_acked is not a string`);
        return;
      }
      states.push(xdsStatus(sent, acked));
    }
    const types = sharedTypes(states);
    out.byProxy.set(row.proxy, { istiod, state: worstState(types), types });
  });
  return out;
}
