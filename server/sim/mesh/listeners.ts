/**
 * Listeners and HTTP route configs of a simulated sidecar, in Envoy v3 JSON: static 15090/15021,
 * virtualOutbound (15001) and virtualInbound (15006), one outbound listener per service port
 * (`0.0.0.0_PORT` for HTTP ports, `VIP_PORT` for TCP ports of services with a cluster IP) and one
 * route config per HTTP port, named after the port.
 */
import type { SimCluster } from './clusters';
import { isHttpProtocol } from './istio-model/protocol';

export const T_LISTENER = 'type.googleapis.com/envoy.config.listener.v3.Listener';
export const T_ROUTE = 'type.googleapis.com/envoy.config.route.v3.RouteConfiguration';
const T_HCM =
  'type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager';
const T_TCP = 'type.googleapis.com/envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy';

type Json = Record<string, unknown>;

export interface SimListener {
  name: string;
  json: Json;
}

export interface SimRoute {
  name: string;
  json: Json;
}

function address(ip: string, port: number): Json {
  return { socket_address: { address: ip, port_value: port } };
}

function tcpChain(statPrefix: string, cluster: string): Json {
  return {
    filters: [
      {
        name: 'envoy.filters.network.tcp_proxy',
        typed_config: { '@type': T_TCP, stat_prefix: statPrefix, cluster },
      },
    ],
  };
}

function hcmChain(statPrefix: string, rds?: string, inlineRoute?: Json): Json {
  const hcm: Json = { '@type': T_HCM, stat_prefix: statPrefix };
  if (rds)
    hcm.rds = {
      config_source: { ads: {}, initial_fetch_timeout: '0s', resource_api_version: 'V3' },
      route_config_name: rds,
    };
  if (inlineRoute) hcm.route_config = inlineRoute;
  hcm.http_filters = [
    {
      name: 'envoy.filters.http.router',
      typed_config: {
        '@type': 'type.googleapis.com/envoy.extensions.filters.http.router.v3.Router',
      },
    },
  ];
  return {
    filters: [{ name: 'envoy.filters.network.http_connection_manager', typed_config: hcm }],
  };
}

export function staticListeners(): Json[] {
  const prom = {
    virtual_hosts: [
      {
        name: 'backend',
        domains: ['*'],
        routes: [
          { match: { prefix: '/stats/prometheus' }, route: { cluster: 'prometheus_stats' } },
        ],
      },
    ],
  };
  const health = {
    virtual_hosts: [
      {
        name: 'backend',
        domains: ['*'],
        routes: [{ match: { prefix: '/healthz/ready' }, route: { cluster: 'agent' } }],
      },
    ],
  };
  return [
    {
      '@type': T_LISTENER,
      address: address('0.0.0.0', 15090),
      filter_chains: [hcmChain('stats', undefined, prom)],
    },
    {
      '@type': T_LISTENER,
      address: address('0.0.0.0', 15021),
      filter_chains: [hcmChain('agent', undefined, health)],
    },
  ];
}

/** Dynamic listeners for a proxy with the given clusters. Gateways get no virtual listeners. */
export function dynamicListeners(clusters: readonly SimCluster[], gateway: boolean): SimListener[] {
  const out = new Map<string, SimListener>();
  if (!gateway) {
    out.set('virtualOutbound', {
      name: 'virtualOutbound',
      json: {
        '@type': T_LISTENER,
        name: 'virtualOutbound',
        address: address('0.0.0.0', 15001),
        filter_chains: [tcpChain('PassthroughCluster', 'PassthroughCluster')],
        use_original_dst: true,
        traffic_direction: 'OUTBOUND',
      },
    });
    const inboundChains = clusters
      .filter((c) => c.direction === 'inbound')
      .map((c) => ({
        filter_chain_match: { destination_port: c.port },
        ...tcpChain(c.name, c.name),
      }));
    out.set('virtualInbound', {
      name: 'virtualInbound',
      json: {
        '@type': T_LISTENER,
        name: 'virtualInbound',
        address: address('0.0.0.0', 15006),
        filter_chains: [
          ...inboundChains,
          tcpChain('InboundPassthroughCluster', 'InboundPassthroughCluster'),
        ],
        traffic_direction: 'INBOUND',
      },
    });
  }
  for (const c of clusters) {
    if (c.direction !== 'outbound' || c.subset || c.port === undefined || !c.service) continue;
    const http = isHttpProtocol(c.protocol ?? '');
    const vip = c.service.address && c.service.address !== 'None' ? c.service.address : '0.0.0.0';
    const ip = http ? '0.0.0.0' : vip;
    const name = `${ip}_${c.port}`;
    if (out.has(name)) continue;
    const chain = http
      ? hcmChain(`outbound_0.0.0.0_${c.port}`, String(c.port))
      : tcpChain(c.name, c.name);
    out.set(name, {
      name,
      json: {
        '@type': T_LISTENER,
        name,
        address: address(ip, c.port),
        filter_chains: [chain],
        traffic_direction: 'OUTBOUND',
        bind_to_port: false,
      },
    });
  }
  return [...out.values()];
}

/**
 * Number of dynamic listeners without building them (cheap path for /stats/prometheus); memoized
 * per cluster array (the scope cache hands out the same outbound array to a whole scope).
 */
const outboundCountMemo = new WeakMap<readonly SimCluster[], number>();

export function outboundListenerCount(outbound: readonly SimCluster[]): number {
  const hit = outboundCountMemo.get(outbound);
  if (hit !== undefined) return hit;
  const names = new Set<string>();
  for (const c of outbound) {
    if (c.direction !== 'outbound' || c.subset || c.port === undefined || !c.service) continue;
    const http = isHttpProtocol(c.protocol ?? '');
    const vip = c.service.address && c.service.address !== 'None' ? c.service.address : '0.0.0.0';
    names.add(`${http ? '0.0.0.0' : vip}_${c.port}`);
  }
  outboundCountMemo.set(outbound, names.size);
  return names.size;
}

const DEFAULT_RETRY = {
  retry_on: 'connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes',
  num_retries: 2,
  retry_host_predicate: [{ name: 'envoy.retry_host_predicates.previous_hosts' }],
  host_selection_retry_max_attempts: '5',
  retriable_status_codes: [503],
};

function domains(host: string, port: number): string[] {
  const out = [host, `${host}:${port}`];
  const m = /^([^.]+)\.([^.]+)\.svc\./.exec(host);
  if (m) out.push(m[1] ?? '', `${m[1]}:${port}`, `${m[1]}.${m[2]}`, `${m[1]}.${m[2]}:${port}`);
  return out;
}

/** One RouteConfiguration per HTTP port: a virtual host per service plus allow_any. */
export function routeConfigs(clusters: readonly SimCluster[]): SimRoute[] {
  const byPort = new Map<number, Json[]>();
  for (const c of clusters) {
    if (c.direction !== 'outbound' || c.subset || c.port === undefined || !c.host) continue;
    if (!isHttpProtocol(c.protocol ?? '')) continue;
    const list = byPort.get(c.port) ?? [];
    list.push({
      name: `${c.host}:${c.port}`,
      domains: domains(c.host, c.port),
      routes: [
        {
          match: { prefix: '/' },
          route: {
            cluster: c.name,
            timeout: '0s',
            retry_policy: DEFAULT_RETRY,
            max_grpc_timeout: '0s',
          },
          decorator: { operation: `${c.host}:${c.port}/*` },
          name: 'default',
        },
      ],
      include_request_attempt_count: true,
    });
    byPort.set(c.port, list);
  }
  return [...byPort.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([port, vhosts]) => ({
      name: String(port),
      json: {
        '@type': T_ROUTE,
        name: String(port),
        virtual_hosts: [
          ...vhosts,
          {
            name: 'allow_any',
            domains: ['*'],
            routes: [
              {
                match: { prefix: '/' },
                route: { cluster: 'PassthroughCluster', timeout: '0s' },
                name: 'allow_any',
              },
            ],
          },
        ],
        validate_clusters: false,
      },
    }));
}
