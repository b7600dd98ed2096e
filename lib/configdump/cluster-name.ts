/**
 * Istio cluster names: `DIRECTION|PORT|SUBSET|FQDN` (outbound|80|v1|reviews.default.svc.cluster.local,
 * inbound|9080||, inbound|9080||reviews.default.svc.cluster.local, inbound-vip|8000|http|...).
 * Like istioctl, a name is treated as an Istio name when it splits into more than three parts
 * on `|`; everything else (BlackHoleCluster, xds-grpc, ...) is a plain name.
 */
export interface ParsedClusterName {
  istio: boolean;
  direction: string;
  /** Port number; 0 when not an Istio name or when the port part is not a number. */
  port: number;
  subset: string;
  /** Host part; the whole name for non-Istio names; '' when the host is absent or malformed. */
  fqdn: string;
}

/** Go strconv.Atoi semantics: optional sign and decimal digits, else 0. */
function atoi(s: string): number {
  if (!/^[+-]?\d+$/.test(s)) return 0;
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : 0;
}

export function parseClusterName(name: string): ParsedClusterName {
  const parts = name.split('|');
  if (parts.length <= 3) return { istio: false, direction: '', port: 0, subset: '', fqdn: name };
  const [direction = '', port = '', subset = ''] = parts;
  const rest = parts.slice(3);
  // A fourth `|` means the host part is malformed: istioctl leaves the host empty then.
  const fqdn = rest.length === 1 ? (rest[0] ?? '') : '';
  return { istio: true, direction, port: atoi(port), subset, fqdn };
}

/** inbound|..., outbound|... and their variants (inbound-vip, ...) are service clusters. */
export function directionClass(direction: string): 'inbound' | 'outbound' | 'other' {
  if (direction.startsWith('inbound')) return 'inbound';
  if (direction.startsWith('outbound')) return 'outbound';
  return 'other';
}
