/** An Istio cluster name `DIRECTION|PORT|SUBSET|FQDN`, split into its parts. */
export interface ClusterRef {
  /** The name as written. */
  name: string;
  direction: 'outbound' | 'inbound' | null;
  port: number | null;
  subset: string | null;
  fqdn: string | null;
}

/**
 * Splits an Istio cluster name. `outbound|8080|v1|payments.shop.svc.cluster.local`,
 * `inbound|9080||` (newer inbound clusters have no FQDN), and the SNI-style
 * `outbound_.8000_._.httpbin.default.svc.cluster.local`. Other names (PassthroughCluster,
 * BlackHoleCluster, xds-grpc ...) come back with direction null. "-" and empty give null.
 */
export function parseClusterName(value: string | null | undefined): ClusterRef | null {
  if (!value || value === '-') return null;
  const parts = value.split('|');
  if (parts.length === 4 && (parts[0] === 'outbound' || parts[0] === 'inbound')) {
    return {
      name: value,
      direction: parts[0],
      port: toPort(parts[1] ?? ''),
      subset: parts[2] ? parts[2] : null,
      fqdn: parts[3] ? parts[3] : null,
    };
  }
  const sni = /^(outbound|inbound)_\.(\d+)_\.([^_]*)_\.(.+)$/.exec(value);
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

function toPort(text: string): number | null {
  return /^\d{1,5}$/.test(text) ? Number(text) : null;
}
