/**
 * Envoy v3 JSON (snake_case, as /config_dump writes it) for simulated clusters and their
 * ClusterLoadAssignments.
 */
import type { OutlierDetection } from '../../../lib/kube/types';
import type { SimCluster } from './clusters';
import type { SimEndpoint } from './endpoints';
import { isHttp2 } from './istio-model/protocol';

export const T_CLUSTER = 'type.googleapis.com/envoy.config.cluster.v3.Cluster';
export const T_CLA = 'type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment';

type Json = Record<string, unknown>;

const ADS_CONFIG = { ads: {}, initial_fetch_timeout: '0s', resource_api_version: 'V3' };
const MAX = 4294967295;

function socket(address: string, port: number): Json {
  return { socket_address: { address, port_value: port } };
}

export function loadAssignment(name: string, endpoints: readonly SimEndpoint[]): Json {
  return {
    cluster_name: name,
    endpoints: [
      {
        locality: {},
        lb_endpoints: endpoints.map((e) => ({
          endpoint: { address: socket(e.address, e.port), health_check_config: {} },
          health_status: e.healthy ? 'HEALTHY' : 'UNHEALTHY',
          load_balancing_weight: 1,
        })),
        load_balancing_weight: endpoints.length,
      },
    ],
  };
}

function outlier(o: OutlierDetection): Json {
  const out: Json = {};
  if (o.consecutive5xxErrors !== undefined) {
    out.consecutive_5xx = o.consecutive5xxErrors;
    out.enforcing_consecutive_5xx = 100;
  } else out.enforcing_consecutive_5xx = 0;
  if (o.consecutiveGatewayErrors !== undefined) {
    out.consecutive_gateway_failure = o.consecutiveGatewayErrors;
    out.enforcing_consecutive_gateway_failure = 100;
  }
  if (o.interval) out.interval = o.interval;
  if (o.baseEjectionTime) out.base_ejection_time = o.baseEjectionTime;
  if (o.maxEjectionPercent !== undefined) out.max_ejection_percent = o.maxEjectionPercent;
  out.enforcing_success_rate = 0;
  return out;
}

function staticLoadAssignment(c: SimCluster): Json | undefined {
  const a = c.localAddress;
  if (!a) return undefined;
  const address = a.pipe ? { pipe: { path: a.pipe } } : socket(a.address, a.port ?? 0);
  return { cluster_name: c.name, endpoints: [{ lb_endpoints: [{ endpoint: { address } }] }] };
}

/** One cluster as Envoy dumps it (inner `cluster` object of Static/DynamicCluster). */
export function clusterJson(c: SimCluster, endpoints: readonly SimEndpoint[] = []): Json {
  const out: Json = { '@type': T_CLUSTER, name: c.name, type: c.type };
  if (c.type === 'EDS') {
    out.eds_cluster_config = { eds_config: ADS_CONFIG, service_name: c.name };
  }
  out.connect_timeout = c.static ? '0.250s' : '10s';
  if (c.type === 'ORIGINAL_DST') out.lb_policy = 'CLUSTER_PROVIDED';
  if (c.type === 'STRICT_DNS' || c.type === 'LOGICAL_DNS') {
    out.dns_lookup_family = 'V4_ONLY';
    out.dns_refresh_rate = '60s';
  }
  if (c.direction) {
    out.circuit_breakers = {
      thresholds: [
        {
          max_connections: MAX,
          max_pending_requests: MAX,
          max_requests: MAX,
          max_retries: MAX,
          track_remaining: true,
        },
      ],
    };
  }
  if (c.protocol && isHttp2(c.protocol)) {
    out.typed_extension_protocol_options = {
      'envoy.extensions.upstreams.http.v3.HttpProtocolOptions': {
        '@type': 'type.googleapis.com/envoy.extensions.upstreams.http.v3.HttpProtocolOptions',
        explicit_http_config: { http2_protocol_options: {} },
      },
    };
  }
  if (c.outlierDetection) out.outlier_detection = outlier(c.outlierDetection);
  if (c.direction === 'outbound' && c.service) {
    const istio: Json = {
      services: [
        { host: c.service.hostname, name: c.service.name, namespace: c.service.namespace },
      ],
    };
    if (c.subset) istio.subset = c.subset;
    if (c.destinationRule) {
      istio.config = `/apis/networking.istio.io/v1/namespaces/${c.destinationRule.namespace}/destination-rule/${c.destinationRule.name}`;
    }
    out.metadata = { filter_metadata: { istio } };
    if (c.type === 'STRICT_DNS' || c.type === 'LOGICAL_DNS')
      out.load_assignment = loadAssignment(c.name, endpoints);
  } else if (c.static || c.direction === 'inbound') {
    const la = staticLoadAssignment(c);
    if (la && c.type !== 'ORIGINAL_DST') out.load_assignment = la;
  }
  return out;
}

/** Endpoints a cluster has in EDS terms: EDS clusters from the index, static ones from their address. */
export function claJson(c: SimCluster, endpoints: readonly SimEndpoint[]): Json {
  return { '@type': T_CLA, ...loadAssignment(c.name, endpoints) };
}
