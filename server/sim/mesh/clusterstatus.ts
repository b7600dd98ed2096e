/**
 * Envoy admin /clusters: `?format=json` (envoy.admin.v3.Clusters, snake_case as Envoy writes it:
 * cluster_statuses[].host_statuses[].address.socket_address, health_status.eds_health_status, stats)
 * and the plain text form (`CLUSTER::IP:PORT::stat::value`).
 */
import type { SimCluster } from './clusters';
import type { SimEndpoint } from './endpoints';
import { allClusters, type ProxyContext } from './proxy';

type Json = Record<string, unknown>;

const HOST_STATS = [
  'cx_active',
  'cx_connect_fail',
  'cx_total',
  'rq_active',
  'rq_error',
  'rq_success',
  'rq_timeout',
  'rq_total',
];
const GAUGES = new Set(['cx_active', 'rq_active']);

function hostsOf(ctx: ProxyContext, c: SimCluster): SimEndpoint[] {
  if (c.static && c.localAddress && !c.localAddress.pipe) {
    return [{ address: c.localAddress.address, port: c.localAddress.port ?? 0, healthy: true }];
  }
  return ctx.endpoints.forCluster(c, ctx.pod);
}

function hostJson(e: SimEndpoint): Json {
  return {
    address: { socket_address: { address: e.address, port_value: e.port } },
    stats: HOST_STATS.map((name) =>
      GAUGES.has(name) ? { type: 'GAUGE', name } : { name, value: '0' },
    ),
    health_status: { eds_health_status: e.healthy ? 'HEALTHY' : 'UNHEALTHY' },
    weight: 1,
    locality: {},
  };
}

export function clustersJson(ctx: ProxyContext): Json {
  return {
    cluster_statuses: allClusters(ctx).map((c) => {
      const out: Json = { name: c.name };
      if (!c.static) out.added_via_api = true;
      const hosts = hostsOf(ctx, c);
      if (hosts.length > 0) out.host_statuses = hosts.map(hostJson);
      if (c.outlierDetection) out.success_rate_ejection_threshold = {};
      if (c.direction === 'outbound' && c.service) out.observability_name = c.name;
      return out;
    }),
  };
}

export function clustersText(ctx: ProxyContext): string {
  const lines: string[] = [];
  for (const c of allClusters(ctx)) {
    lines.push(
      `${c.name}::observability_name::${c.name}`,
      `${c.name}::added_via_api::${!c.static}`,
    );
    for (const h of hostsOf(ctx, c)) {
      const hp = `${c.name}::${h.address}:${h.port}`;
      lines.push(
        `${hp}::cx_active::0`,
        `${hp}::rq_total::0`,
        `${hp}::health_flags::${h.healthy ? 'healthy' : '/failed_eds_health'}`,
        `${hp}::weight::1`,
      );
    }
  }
  return lines.join('\n') + '\n';
}
