/**
 * Envoy admin /config_dump for a simulated proxy: Bootstrap, Clusters, (Endpoints with
 * include_eds), Listeners, ScopedRoutes and Routes dumps, with Envoy's `resource`, `mask` and
 * `name_regex` query semantics. Secrets are never dumped, whatever is asked.
 */
import type { PodHttpResponse } from './types';
import { claJson, clusterJson } from './clusterjson';
import { applyMask, parseMask } from './fieldmask';
import { dynamicListeners, routeConfigs, staticListeners } from './listeners';
import { allClusters, liveAt, nodeJson, type ProxyContext } from './proxy';

type Json = Record<string, unknown>;

const ADMIN = 'type.googleapis.com/envoy.admin.v3.';
export const DUMP_TYPES = {
  bootstrap: `${ADMIN}BootstrapConfigDump`,
  clusters: `${ADMIN}ClustersConfigDump`,
  endpoints: `${ADMIN}EndpointsConfigDump`,
  listeners: `${ADMIN}ListenersConfigDump`,
  scopedRoutes: `${ADMIN}ScopedRoutesConfigDump`,
  routes: `${ADMIN}RoutesConfigDump`,
} as const;

/** Repeated fields that `?resource=` can select, with the element message type of each. */
const RESOURCE_ELEMENT: Record<string, { dump: string; element: string }> = {
  static_clusters: { dump: DUMP_TYPES.clusters, element: 'ClustersConfigDump.StaticCluster' },
  dynamic_active_clusters: {
    dump: DUMP_TYPES.clusters,
    element: 'ClustersConfigDump.DynamicCluster',
  },
  dynamic_warming_clusters: {
    dump: DUMP_TYPES.clusters,
    element: 'ClustersConfigDump.DynamicCluster',
  },
  static_listeners: { dump: DUMP_TYPES.listeners, element: 'ListenersConfigDump.StaticListener' },
  dynamic_listeners: { dump: DUMP_TYPES.listeners, element: 'ListenersConfigDump.DynamicListener' },
  static_route_configs: { dump: DUMP_TYPES.routes, element: 'RoutesConfigDump.StaticRouteConfig' },
  dynamic_route_configs: {
    dump: DUMP_TYPES.routes,
    element: 'RoutesConfigDump.DynamicRouteConfig',
  },
  static_endpoint_configs: {
    dump: DUMP_TYPES.endpoints,
    element: 'EndpointsConfigDump.StaticEndpointConfig',
  },
  dynamic_endpoint_configs: {
    dump: DUMP_TYPES.endpoints,
    element: 'EndpointsConfigDump.DynamicEndpointConfig',
  },
};

const SECRET_RESOURCES = new Set([
  'static_secrets',
  'dynamic_active_secrets',
  'dynamic_warming_secrets',
]);

function iso(d: Date): string {
  return d.toISOString();
}

export function countListeners(ctx: ProxyContext): number {
  return staticListeners().length + dynamicListeners(allClusters(ctx), ctx.clusters.gateway).length;
}

/** The full dump (as `{configs:[...]}`), sections in Envoy's order, found by @type by readers. */
export function buildConfigDump(ctx: ProxyContext, includeEds: boolean): { configs: Json[] } {
  const live = iso(liveAt(ctx));
  const staticClusters = ctx.clusters.staticClusters;
  const dynamic = ctx.clusters.dynamicClusters;
  const endpointsOf = (c: (typeof dynamic)[number]) =>
    c.type === 'EDS' || c.type === 'STRICT_DNS' || c.type === 'LOGICAL_DNS'
      ? ctx.endpoints.forCluster(c, ctx.pod)
      : [];
  const statics = staticListeners();
  const listeners = dynamicListeners(allClusters(ctx), ctx.clusters.gateway);
  const routes = routeConfigs(dynamic);
  const configs: Json[] = [
    {
      '@type': DUMP_TYPES.bootstrap,
      bootstrap: {
        node: nodeJson(ctx),
        static_resources: {
          listeners: statics,
          clusters: staticClusters.map((c) => clusterJson(c)),
        },
        dynamic_resources: {
          lds_config: { ads: {}, initial_fetch_timeout: '0s', resource_api_version: 'V3' },
          cds_config: { ads: {}, initial_fetch_timeout: '0s', resource_api_version: 'V3' },
          ads_config: {
            api_type: 'GRPC',
            set_node_on_first_message_only: true,
            transport_api_version: 'V3',
            grpc_services: [{ envoy_grpc: { cluster_name: 'xds-grpc' } }],
          },
        },
        stats_config: { use_all_default_tags: false },
        admin: { address: { socket_address: { address: '127.0.0.1', port_value: 15000 } } },
      },
      last_updated: iso(ctx.startedAt),
    },
    {
      '@type': DUMP_TYPES.clusters,
      version_info: ctx.versionInfo,
      static_clusters: staticClusters.map((c) => ({
        cluster: clusterJson(c),
        last_updated: iso(ctx.startedAt),
      })),
      dynamic_active_clusters: dynamic.map((c) => ({
        version_info: ctx.versionInfo,
        cluster: clusterJson(c, c.type === 'EDS' ? [] : endpointsOf(c)),
        last_updated: live,
      })),
    },
  ];
  if (includeEds) {
    configs.push({
      '@type': DUMP_TYPES.endpoints,
      static_endpoint_configs: staticClusters
        .filter((c) => c.localAddress && !c.localAddress.pipe)
        .map((c) => ({
          endpoint_config: claJson(c, [
            {
              address: c.localAddress?.address ?? '',
              port: c.localAddress?.port ?? 0,
              healthy: true,
            },
          ]),
        })),
      dynamic_endpoint_configs: dynamic
        .filter((c) => c.type === 'EDS')
        .map((c) => ({
          version_info: ctx.versionInfo,
          endpoint_config: claJson(c, endpointsOf(c)),
          last_updated: live,
        })),
    });
  }
  configs.push(
    {
      '@type': DUMP_TYPES.listeners,
      version_info: ctx.versionInfo,
      static_listeners: statics.map((l) => ({ listener: l, last_updated: iso(ctx.startedAt) })),
      dynamic_listeners: listeners.map((l) => ({
        name: l.name,
        active_state: { version_info: ctx.versionInfo, listener: l.json, last_updated: live },
      })),
    },
    { '@type': DUMP_TYPES.scopedRoutes },
    {
      '@type': DUMP_TYPES.routes,
      dynamic_route_configs: routes.map((r) => ({
        version_info: ctx.versionInfo,
        route_config: r.json,
        last_updated: live,
      })),
    },
  );
  return { configs };
}

function elementName(el: Json): string {
  const inner = (el.cluster ?? el.listener ?? el.route_config ?? el.endpoint_config) as
    Json | undefined;
  if (typeof el.name === 'string') return el.name;
  if (inner && typeof inner.name === 'string') return inner.name;
  if (inner && typeof inner.cluster_name === 'string') return inner.cluster_name;
  return '';
}

function json(status: number, body: unknown): PodHttpResponse {
  return { status, contentType: 'application/json', body: JSON.stringify(body, null, 2) + '\n' };
}

/** Answer GET /config_dump with Envoy's query semantics. */
export function configDumpResponse(ctx: ProxyContext, query: URLSearchParams): PodHttpResponse {
  const resource = query.get('resource') ?? '';
  const mask = parseMask(query.get('mask') ?? '');
  let nameRe: RegExp | undefined;
  const rawRe = query.get('name_regex');
  if (rawRe) {
    try {
      nameRe = new RegExp(rawRe);
    } catch {
      return {
        status: 400,
        contentType: 'text/plain',
        body: `Error while parsing name_regex from ${rawRe}\n`,
      };
    }
  }
  if (SECRET_RESOURCES.has(resource)) return json(200, { configs: [] });
  const full = buildConfigDump(ctx, query.has('include_eds') || resource.includes('endpoint'));
  if (resource) {
    const spec = RESOURCE_ELEMENT[resource];
    if (!spec)
      return {
        status: 404,
        contentType: 'text/plain',
        body: `The resource ${resource} is not found\n`,
      };
    const section = full.configs.find((c) => c['@type'] === spec.dump);
    const items = (section?.[resource] as Json[] | undefined) ?? [];
    const configs = items
      .filter((el) => !nameRe || nameRe.test(elementName(el)))
      .map((el) => applyMask({ '@type': `${ADMIN}${spec.element}`, ...el }, mask));
    return json(200, { configs });
  }
  const configs = full.configs.map((section) => {
    if (!nameRe) return section;
    const out: Json = {};
    for (const [k, v] of Object.entries(section)) {
      out[k] = Array.isArray(v) ? (v as Json[]).filter((el) => nameRe.test(elementName(el))) : v;
    }
    return out;
  });
  return json(200, { configs: mask.length > 0 ? configs.map((c) => applyMask(c, mask)) : configs });
}
