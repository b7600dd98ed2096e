/**
 * What a pod's ports answer from the archive's files: Envoy admin (:15000, over port-forward)
 * from `config_dump?include_eds`, `clusters`, `server_info`, `stats/prometheus`; Envoy's
 * Prometheus listener (:15090) from `stats/prometheus`; istiod's debug port (:15014) from
 * `istio/<ns>/<pod>/debug/*`. A path the archive holds no file for answers 404 naming what is
 * missing, so the view shows that part unknown with the reason, never a made-up figure.
 */
import type { ArchiveIndex } from '../../lib/archive/read';
import { archivePath, type ArchiveIstiod, type ArchiveProxy } from '../../lib/archive/layout';

export interface ArchivePortAnswer {
  status: number;
  contentType: string;
  body: Buffer;
}

const text = (status: number, s: string): ArchivePortAnswer => ({
  status,
  contentType: 'text/plain; charset=utf-8',
  body: Buffer.from(s),
});

/** The config-dump sections Envoy's `resource=` names, by the dump message that holds them. */
const RESOURCE_FIELDS: Record<string, { type: string; element: string; camel: string }> = {
  dynamic_active_clusters: {
    type: 'ClustersConfigDump',
    element: 'ClustersConfigDump.DynamicCluster',
    camel: 'dynamicActiveClusters',
  },
  dynamic_warming_clusters: {
    type: 'ClustersConfigDump',
    element: 'ClustersConfigDump.DynamicCluster',
    camel: 'dynamicWarmingClusters',
  },
  static_clusters: {
    type: 'ClustersConfigDump',
    element: 'ClustersConfigDump.StaticCluster',
    camel: 'staticClusters',
  },
  dynamic_listeners: {
    type: 'ListenersConfigDump',
    element: 'ListenersConfigDump.DynamicListener',
    camel: 'dynamicListeners',
  },
  static_listeners: {
    type: 'ListenersConfigDump',
    element: 'ListenersConfigDump.StaticListener',
    camel: 'staticListeners',
  },
  dynamic_route_configs: {
    type: 'RoutesConfigDump',
    element: 'RoutesConfigDump.DynamicRouteConfig',
    camel: 'dynamicRouteConfigs',
  },
  static_route_configs: {
    type: 'RoutesConfigDump',
    element: 'RoutesConfigDump.StaticRouteConfig',
    camel: 'staticRouteConfigs',
  },
  dynamic_endpoint_configs: {
    type: 'EndpointsConfigDump',
    element: 'EndpointsConfigDump.DynamicEndpointConfig',
    camel: 'dynamicEndpointConfigs',
  },
  static_endpoint_configs: {
    type: 'EndpointsConfigDump',
    element: 'EndpointsConfigDump.StaticEndpointConfig',
    camel: 'staticEndpointConfigs',
  },
};
const ADMIN = 'type.googleapis.com/envoy.admin.v3.';

/** Envoy's field mask: keeps the listed dotted paths of an element (and `@type`). */
function masked(el: Record<string, unknown>, paths: string[]): Record<string, unknown> {
  if (paths.length === 0) return el;
  const out: Record<string, unknown> = {};
  for (const p of paths) {
    const parts = p.split('.');
    let src: unknown = el;
    let dst: Record<string, unknown> = out;
    for (let i = 0; i < parts.length; i++) {
      const k = parts[i] ?? '';
      if (src === null || typeof src !== 'object' || !(k in (src as object))) break;
      const v = (src as Record<string, unknown>)[k];
      if (i === parts.length - 1) dst[k] = v;
      else {
        dst[k] = (dst[k] as Record<string, unknown> | undefined) ?? {};
        dst = dst[k] as Record<string, unknown>;
        src = v;
      }
    }
  }
  if (el['@type'] !== undefined) out['@type'] = el['@type'];
  return out;
}

/** `/config_dump?resource=X&mask=Y` from the whole dump, as Envoy answers it: each resource its own element. */
export function configDumpAnswer(
  dump: Buffer,
  query: URLSearchParams,
  cache: Map<string, unknown>,
): ArchivePortAnswer {
  const resource = query.get('resource');
  if (!resource) return { status: 200, contentType: 'application/json', body: dump };
  const spec = RESOURCE_FIELDS[resource];
  if (!spec)
    return text(
      404,
      `resource ${resource} is not a config dump resource this archive's dump holds`,
    );
  let parsed = cache.get('dump') as { configs?: Record<string, unknown>[] } | undefined;
  if (!parsed) {
    try {
      parsed = JSON.parse(dump.toString('utf8')) as { configs?: Record<string, unknown>[] };
    } catch (e) {
      return text(
        500,
        `the archive's config dump is not JSON: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
    cache.set('dump', parsed);
  }
  const section = (parsed.configs ?? []).find((c) =>
    String(c['@type'] ?? '').endsWith(`.${spec.type}`),
  );
  const items = (section?.[resource] ?? section?.[spec.camel] ?? []) as Record<string, unknown>[];
  const mask = (query.get('mask') ?? '')
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
  const configs = (Array.isArray(items) ? items : []).map((el) =>
    masked({ '@type': `${ADMIN}${spec.element}`, ...el }, mask),
  );
  return {
    status: 200,
    contentType: 'application/json',
    body: Buffer.from(JSON.stringify({ configs })),
  };
}

function missing(what: string, file: string, index: ArchiveIndex): ArchivePortAnswer {
  const m = index.missing.find((x) => x.part === file);
  return text(404, `${what}: ${m?.reason ?? `not in the archive ${index.name} (${file})`}`);
}

export async function envoyAdminAnswer(
  index: ArchiveIndex,
  proxy: ArchiveProxy | undefined,
  pathname: string,
  query: URLSearchParams,
  cache: Map<string, unknown>,
): Promise<ArchivePortAnswer> {
  if (!proxy) return text(404, `the archive ${index.name} holds no files of this pod's proxy`);
  const base = archivePath('proxies', proxy.namespace, proxy.pod);
  if (pathname === '/config_dump') {
    if (!proxy.files.configDump)
      return missing('Envoy admin /config_dump', `${base}/config_dump?include_eds`, index);
    return configDumpAnswer(await index.read(proxy.files.configDump), query, cache);
  }
  if (pathname === '/clusters' && query.get('format') !== 'json' && proxy.files.clusters)
    return { status: 200, contentType: 'text/plain', body: await index.read(proxy.files.clusters) };
  if (pathname === '/server_info' && proxy.files.serverInfo)
    return {
      status: 200,
      contentType: 'application/json',
      body: await index.read(proxy.files.serverInfo),
    };
  if (pathname === '/stats/prometheus' && proxy.files.stats)
    return {
      status: 200,
      contentType: 'text/plain; version=0.0.4',
      body: await index.read(proxy.files.stats),
    };
  const held = Object.values(proxy.files).map((f) => f.slice(base.length + 1));
  return text(
    404,
    `Envoy admin ${pathname}${query.size > 0 ? `?${query.toString()}` : ''} is not in the archive: istioctl bug-report keeps ${held.join(', ') || 'no file'} of this proxy`,
  );
}

export async function istiodDebugAnswer(
  index: ArchiveIndex,
  istiod: ArchiveIstiod | undefined,
  pathname: string,
): Promise<ArchivePortAnswer> {
  if (!istiod) return text(404, `the archive ${index.name} holds no istiod files of this pod`);
  const m = /^\/debug\/([\w-]+)$/.exec(pathname);
  const file = m?.[1] ? istiod.debug[m[1]] : pathname === '/metrics' ? istiod.metrics : undefined;
  if (!file)
    return missing(
      `istiod ${pathname}`,
      `${archivePath('istio', istiod.namespace, istiod.pod)}${pathname}`,
      index,
    );
  return { status: 200, contentType: 'application/json', body: await index.read(file) };
}
