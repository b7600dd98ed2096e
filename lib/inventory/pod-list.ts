import type { PodList } from '../api/inventory';
import { badParameter } from '../api/request-error';
import { queryParams } from '../api/param-kinds';
import type { Namespace, Pod } from '../kube/types';
import { podRow } from './build';
import { proxyOf } from './proxy';

/** The largest page `GET /api/pods` sends; a screen that needs more filters instead. */
export const POD_LIST_MAX = 5_000;
export const POD_LIST_DEFAULT = 500;

/** What a screen asks of the pods: every filter optional, all of them must hold. */
export interface PodListQuery {
  namespace?: string;
  /** Pods whose status.podIP or one of status.podIPs is this address. */
  ip?: string;
  /** Only pods with an Istio proxy (sidecar, native sidecar, gateway, waypoint). */
  meshed?: boolean;
  /** Part of the pod's name. */
  q?: string;
  /** Rows sent, 1..POD_LIST_MAX (default POD_LIST_DEFAULT). */
  limit?: number;
}

const holdsIp = (p: Pod, ip: string): boolean =>
  p.status?.podIP === ip || (p.status?.podIPs ?? []).some((x) => x.ip === ip);

const byNamespaceName = (a: Pod, b: Pod): number => {
  const na = a.metadata.namespace ?? '';
  const nb = b.metadata.namespace ?? '';
  if (na !== nb) return na < nb ? -1 : 1;
  return a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0;
};

/**
 * The pods matching a screen's filters, ordered by namespace then name, as rows: only the first
 * `limit` are turned into rows (a 50,000-pod cluster never becomes 50,000 rows for one picker),
 * and `total` says how many matched.
 */
export function podListPage(
  pods: readonly Pod[],
  namespaces: readonly Namespace[],
  query: PodListQuery,
  now: Date,
): PodList {
  const limit = query.limit ?? POD_LIST_DEFAULT;
  const q = query.q?.toLowerCase();
  const matched = pods.filter(
    (p) =>
      (query.namespace === undefined || (p.metadata.namespace ?? '') === query.namespace) &&
      (query.ip === undefined || holdsIp(p, query.ip)) &&
      (q === undefined || p.metadata.name.toLowerCase().includes(q)) &&
      (!query.meshed || proxyOf(p).placement !== 'none'),
  );
  matched.sort(byNamespaceName);
  const nsByName = new Map(namespaces.map((n) => [n.metadata.name, n]));
  return {
    generatedAt: now.toISOString(),
    total: matched.length,
    truncated: matched.length > limit,
    pods: matched.slice(0, limit).map((p) => podRow(p, nsByName.get(p.metadata.namespace ?? ''))),
  };
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;
const IPV6 = /^[0-9a-fA-F:.]{2,45}$/;

/** Whether the text is an IPv4 or IPv6 address as a pod's status carries it. */
export const isIpAddress = (v: string): boolean =>
  IPV4.test(v) || (v.includes(':') && IPV6.test(v));

/** The parameters of a /api/pods URL, by kind (lib/api/param-kinds.ts). */
export const POD_LIST_QUERY_KINDS = {
  namespace: 'namespace',
  ip: 'ip',
  meshed: 'flag',
  q: 'text',
  limit: 'limit',
} as const;

/**
 * The query of a /api/pods URL (?namespace=&ip=&meshed=1&q=&limit=). A value that cannot be used
 * is a 400 naming the parameter.
 */
export function parsePodListQuery(sp: URLSearchParams): PodListQuery {
  const v = queryParams(sp, POD_LIST_QUERY_KINDS);
  const out: PodListQuery = {};
  if (v.namespace !== undefined) out.namespace = v.namespace;
  if (v.ip !== undefined) out.ip = v.ip;
  if (v.meshed !== undefined) out.meshed = v.meshed;
  const q = v.q?.trim();
  if (q) out.q = q;
  if (v.limit !== undefined) {
    if (v.limit > POD_LIST_MAX)
      throw badParameter('limit', `${v.limit} is more than ${POD_LIST_MAX}`);
    out.limit = v.limit;
  }
  return out;
}

/** The URL query of a pod list query (absent values left out), the inverse of parsePodListQuery. */
export function podListQueryString(q: PodListQuery): string {
  const sp = new URLSearchParams();
  if (q.namespace !== undefined) sp.set('namespace', q.namespace);
  if (q.ip !== undefined) sp.set('ip', q.ip);
  if (q.meshed !== undefined) sp.set('meshed', q.meshed ? '1' : '0');
  if (q.q !== undefined) sp.set('q', q.q);
  if (q.limit !== undefined) sp.set('limit', String(q.limit));
  return sp.toString();
}
