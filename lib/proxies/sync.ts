import { z } from 'zod';

/**
 * istiod's /debug/syncz (one JSON array per replica, rows only for the proxies connected to it)
 * turned into istioctl proxy-status states per xDS type.
 */
const SyncRowSchema = z
  .object({
    proxy: z.string(),
    cluster_sent: z.string().optional(),
    cluster_acked: z.string().optional(),
    listener_sent: z.string().optional(),
    listener_acked: z.string().optional(),
    route_sent: z.string().optional(),
    route_acked: z.string().optional(),
    endpoint_sent: z.string().optional(),
    endpoint_acked: z.string().optional(),
  })
  .loose();

export interface ProxySync {
  istiod: string;
  state: string;
  types: Record<string, string>;
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
export function worstState(types: Record<string, string>): string {
  let worst = 'SYNCED';
  for (const s of Object.values(types)) if ((RANK[s] ?? 0) > (RANK[worst] ?? 0)) worst = s;
  return worst;
}

/** Reads one replica's /debug/syncz body; bad rows are counted in errors, never dropped silently. */
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
  value.forEach((raw, i) => {
    const r = SyncRowSchema.safeParse(raw);
    if (!r.success) {
      out.errors.push(`${istiod}: /debug/syncz[${i}] has no proxy id`);
      return;
    }
    const types: Record<string, string> = {};
    for (const [label, key] of TYPES) {
      const row = r.data as Record<string, string | undefined>;
      types[label] = xdsStatus(row[`${key}_sent`], row[`${key}_acked`]);
    }
    out.byProxy.set(r.data.proxy, { istiod, state: worstState(types), types });
  });
  return out;
}
