import { field, isObject, objectField, stringField } from './fields';

/** envoy.config.cluster.v3.Cluster.DiscoveryType enum numbers (protojson may print numbers). */
const DISCOVERY_TYPES: Record<number, string> = {
  0: 'STATIC',
  1: 'STRICT_DNS',
  2: 'LOGICAL_DNS',
  3: 'EDS',
  4: 'ORIGINAL_DST',
};

/**
 * TYPE column. `type` when present; otherwise EDS when `eds_cluster_config` is set, else the
 * `cluster_type.name` extension (envoy.clusters.aggregate, ...). Nothing at all means the
 * proto3 default STATIC, which protojson omits. (istioctl itself prints STATIC for
 * cluster_type clusters because it reads the enum only; meshdx names the extension instead.)
 */
export function clusterType(cluster: unknown): string {
  const t = field(cluster, 'type');
  if (typeof t === 'string' && t !== '') return t;
  if (typeof t === 'number') return DISCOVERY_TYPES[t] ?? `TYPE_${t}`;
  if (field(cluster, 'eds_cluster_config') !== undefined) return 'EDS';
  const custom = stringField(objectField(cluster, 'cluster_type'), 'name');
  if (custom) return custom;
  return 'STATIC';
}

const DR_PREFIX = /^\/apis\/networking\.istio\.io\/[^/]+\/namespaces\//;

/**
 * DESTINATION RULE column, from `metadata.filter_metadata.istio.config`: a path like
 * `/apis/networking.istio.io/v1alpha3/namespaces/NS/destination-rule/NAME` is shown as
 * `NAME.NS`; a path of another shape is `<unknown>` (as istioctl prints it); no config is ''.
 * istioctl accepts only the v1alpha3 prefix; any networking.istio.io version is accepted here.
 */
export function destinationRule(cluster: unknown): string {
  const metadata = objectField(cluster, 'metadata');
  const filter = objectField(metadata, 'filter_metadata');
  const istio = filter?.istio;
  if (!isObject(istio) || !('config' in istio)) return '';
  const config = typeof istio.config === 'string' ? istio.config : '';
  if (!DR_PREFIX.test(config)) return '<unknown>';
  const pieces = config.split('/');
  if (pieces.length !== 8) return '';
  return `${pieces[7]}.${pieces[5]}`;
}
