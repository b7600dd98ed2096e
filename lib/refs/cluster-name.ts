/**
 * Istio's Envoy cluster names, formatted and read here only.
 *
 * istiod names a service cluster `DIRECTION|PORT|SUBSET|FQDN` (istio/istio pkg/model
 * BuildSubsetKey): `outbound|80|v1|reviews.default.svc.cluster.local`, `outbound|9080||details...`
 * without subset, `inbound|9080||` for an inbound cluster since Istio 1.10 (no host), before that
 * `inbound|9080|http|reviews.default.svc.cluster.local` (the port's name as subset). Variants
 * such as `inbound-vip|8000|http|...` appear in waypoints. As an SNI (auto mTLS, access-log
 * `upstream_transport_failure_reason`), the same name is written
 * `outbound_.8000_._.httpbin.default.svc.cluster.local`. Every other cluster (BlackHoleCluster,
 * PassthroughCluster, xds-grpc, agent, prometheus_stats, ...) has a plain name.
 *
 * Two readings of one split:
 * - parseClusterName: the service cluster a name is, `outbound`/`inbound` only (access logs,
 *   Scoping, Incidents);
 * - clusterColumns: the columns `istioctl proxy-config cluster` prints for it, which take any
 *   name of more than three `|` parts as Istio's, whatever its direction, as istioctl does.
 */

export type ClusterDirection = 'outbound' | 'inbound';

/** An Istio cluster name read as a service cluster. */
export interface ClusterRef {
  /** The name as written. */
  name: string;
  /** null for a name that is not a service cluster's (BlackHoleCluster, inbound-vip|...). */
  direction: ClusterDirection | null;
  port: number | null;
  subset: string | null;
  fqdn: string | null;
}

/** The columns of `istioctl proxy-config cluster` for one cluster name. */
export interface ClusterColumns {
  istio: boolean;
  /** As written: outbound, inbound, inbound-vip...; '' when not an Istio name. */
  direction: string;
  /** Port number; 0 when not an Istio name or when the port part is not a number. */
  port: number;
  subset: string;
  /** Host part; the whole name for non-Istio names; '' when the host is absent or malformed. */
  fqdn: string;
}

/** `DIRECTION|PORT|SUBSET|FQDN`; no subset or no host leaves its part empty (`inbound|9080||`). */
export function formatClusterName(c: {
  direction: ClusterDirection;
  port: number;
  subset?: string;
  fqdn?: string;
}): string {
  return [c.direction, String(c.port), c.subset ?? '', c.fqdn ?? ''].join('|');
}

/** The `|` parts of a name, when it has more than three (istioctl's test of an Istio name). */
function pipeParts(name: string): string[] | null {
  const parts = name.split('|');
  return parts.length > 3 ? parts : null;
}

const SNI = /^(outbound|inbound)_\.(\d+)_\.([^_]*)_\.(.+)$/;

/**
 * Reads a service cluster name: `outbound|8080|v1|payments.shop.svc.cluster.local`,
 * `inbound|9080||` (no FQDN), the SNI form `outbound_.8000_._.httpbin.default.svc.cluster.local`.
 * Other names (PassthroughCluster, BlackHoleCluster, xds-grpc, inbound-vip|...) come back with
 * direction null; "-" and empty give null. An empty subset or host is null.
 */
export function parseClusterName(value: string | null | undefined): ClusterRef | null {
  if (!value || value === '-') return null;
  const parts = pipeParts(value);
  if (parts?.length === 4 && (parts[0] === 'outbound' || parts[0] === 'inbound')) {
    return {
      name: value,
      direction: parts[0],
      port: toPort(parts[1] ?? ''),
      subset: parts[2] ? parts[2] : null,
      fqdn: parts[3] ? parts[3] : null,
    };
  }
  const sni = SNI.exec(value);
  if (sni) {
    const direction = sni[1] === 'inbound' ? 'inbound' : 'outbound';
    const subset = sni[3] ?? '';
    return {
      name: value,
      direction,
      port: toPort(sni[2] ?? ''),
      subset: subset === '' ? null : subset,
      fqdn: sni[4] ?? null,
    };
  }
  return { name: value, direction: null, port: null, subset: null, fqdn: null };
}

/**
 * istioctl's columns for a cluster name: any name of more than three `|` parts is Istio's, its
 * port read like Go's strconv.Atoi (0 when not a number), its host left empty when a fourth `|`
 * makes it malformed; every other name is plain, its FQDN column the whole name.
 */
export function clusterColumns(name: string): ClusterColumns {
  const parts = pipeParts(name);
  if (parts === null) return { istio: false, direction: '', port: 0, subset: '', fqdn: name };
  const [direction = '', port = '', subset = ''] = parts;
  const rest = parts.slice(3);
  const fqdn = rest.length === 1 ? (rest[0] ?? '') : '';
  return { istio: true, direction, port: atoi(port), subset, fqdn };
}

/** inbound|..., outbound|... and their variants (inbound-vip, ...) are service clusters. */
export function directionClass(direction: string): 'inbound' | 'outbound' | 'other' {
  if (direction.startsWith('inbound')) return 'inbound';
  if (direction.startsWith('outbound')) return 'outbound';
  return 'other';
}

function toPort(text: string): number | null {
  return /^\d{1,5}$/.test(text) ? Number(text) : null;
}

/** Go strconv.Atoi semantics: optional sign and decimal digits, else 0. */
function atoi(s: string): number {
  if (!/^[+-]?\d+$/.test(s)) return 0;
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : 0;
}
