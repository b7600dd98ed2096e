/**
 * Proxy staleness across the fleet from istiod's `/debug/syncz` alone (no call per proxy), as
 * `istioctl proxy-status -o json` (1.30) states it per xDS type: SYNCED, STALE, STALE (Never
 * Acknowledged), NOT SENT; with the age of the nonce a STALE type waits on.
 *
 * The age comes from the nonce itself: istiod's nonce is its push version followed by a UUID
 * (pilot/pkg/xds `nonce(noncePrefix)`), and the push version is `time.Now().Format(time.RFC3339)
 * + "/" + counter` (`NextVersion`), so a sent nonce names the second of the push it belongs to.
 * An incremental EDS push reuses the last full push's version, so an EDS age is an upper bound;
 * an older istiod's nonce without that prefix has no age (null, and the reason says so).
 */
import { parsePodDotted, podKeyOf } from '../refs/pod-ref';
import { XDS_FIELDS, XDS_STATES, XDS_TYPES, xdsStateCode } from './xds-state';

export type XdsType = (typeof XDS_TYPES)[number][0];

/** A proxy waiting longer than this on an ACK is over the threshold the Proxies view ranks against. */
export const STALE_AFTER_MS = 30_000;

export interface TypeNonces {
  sent: string | null;
  acked: string | null;
}

/** One proxy's row of syncz: its pod key and the nonces per type. */
export interface SynczNonces {
  proxy: string;
  istiod: string;
  types: Readonly<Record<XdsType, TypeNonces>>;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/**
 * Every row of one replica's syncz body, with its nonces; rows that cannot be read are named in
 * `errors` with their index, never dropped silently.
 */
export function parseSynczNonces(
  istiod: string,
  body: string,
): { rows: SynczNonces[]; errors: string[] } {
  const rows: SynczNonces[] = [];
  const errors: string[] = [];
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { rows, errors: [`${istiod}: /debug/syncz did not return JSON`] };
  }
  if (!Array.isArray(value)) return { rows, errors: [`${istiod}: /debug/syncz is not a list`] };
  value.forEach((raw: unknown, i) => {
    const row = raw as Record<string, unknown> | null;
    if (typeof row !== 'object' || row === null || typeof row.proxy !== 'string') {
      errors.push(`${istiod}: /debug/syncz[${i}] has no proxy id`);
      return;
    }
    let proxy: string;
    try {
      proxy = podKeyOf(parsePodDotted(row.proxy));
    } catch {
      errors.push(
        `${istiod}: /debug/syncz[${i}] proxy ${JSON.stringify(row.proxy)} is not POD.NAMESPACE`,
      );
      return;
    }
    const types = {} as Record<XdsType, TypeNonces>;
    XDS_TYPES.forEach(([label], k) => {
      const [sent, acked] = XDS_FIELDS[k] as readonly [string, string];
      types[label] = { sent: str(row[sent]), acked: str(row[acked]) };
    });
    rows.push({ proxy, istiod, types });
  });
  return { rows, errors };
}

const VERSION = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d))\/\d+/;

/** The push instant a nonce names (`RFC3339/counter` + UUID), null when it names none. */
export function nonceSentAt(nonce: string): number | null {
  const m = VERSION.exec(nonce);
  if (!m) return null;
  const t = Date.parse(m[1] as string);
  return Number.isFinite(t) ? t : null;
}

export interface TypeStaleness {
  state: (typeof XDS_STATES)[number];
  /** How long the sent nonce has waited for its ACK (STALE types), null when its push names no time. */
  ageMs: number | null;
}

export interface ProxyStaleness {
  proxy: string;
  istiod: string;
  types: Record<XdsType, TypeStaleness>;
  /** The longest wait of its STALE types (null: none stale, or no age known). */
  oldestMs: number | null;
  stale: boolean;
  /** Over the threshold: stale with a known age above it, or never acknowledged. */
  overThreshold: boolean;
}

export interface StalenessRanking {
  thresholdMs: number;
  proxies: number;
  stale: number;
  overThreshold: number;
  /** Stale proxies, the longest waiting first (unknown ages after known ones), up to `limit`. */
  top: ProxyStaleness[];
  /** Stale proxies whose nonces name no push time (an istiod older than push-versioned nonces). */
  ageUnknown: number;
}

/** The fleet's stale proxies ranked by how long they wait, against `thresholdMs`. */
export function rankStaleness(
  rows: readonly SynczNonces[],
  now: number,
  thresholdMs: number,
  limit = 100,
): StalenessRanking {
  let stale = 0;
  let over = 0;
  let ageUnknown = 0;
  // keep only the top `limit` while scanning: 20,000 rows, a handful stale
  const top: ProxyStaleness[] = [];
  const key = (p: ProxyStaleness) => p.oldestMs ?? -1;
  for (const row of rows) {
    let oldest: number | null = null;
    let anyStale = false;
    let never = false;
    const types = {} as Record<XdsType, TypeStaleness>;
    for (const [label] of XDS_TYPES) {
      const n = row.types[label];
      const code = xdsStateCode(n.sent === null, n.acked === null, n.sent === n.acked);
      const state = XDS_STATES[code] as TypeStaleness['state'];
      let ageMs: number | null = null;
      if (code >= 2 && n.sent !== null) {
        anyStale = true;
        if (code === 2) never = true;
        const at = nonceSentAt(n.sent);
        if (at !== null) {
          ageMs = Math.max(0, now - at);
          if (oldest === null || ageMs > oldest) oldest = ageMs;
        }
      }
      types[label] = { state, ageMs };
    }
    if (!anyStale) continue;
    stale++;
    if (oldest === null) ageUnknown++;
    const overThreshold = never || (oldest !== null && oldest > thresholdMs);
    if (overThreshold) over++;
    const p: ProxyStaleness = {
      proxy: row.proxy,
      istiod: row.istiod,
      types,
      oldestMs: oldest,
      stale: true,
      overThreshold,
    };
    if (top.length < limit || key(p) > key(top[top.length - 1] as ProxyStaleness)) {
      let i = top.length;
      while (i > 0 && key(top[i - 1] as ProxyStaleness) < key(p)) i--;
      top.splice(i, 0, p);
      if (top.length > limit) top.pop();
    }
  }
  return { thresholdMs, proxies: rows.length, stale, overThreshold: over, top, ageUnknown };
}
