import type { KubeConfig } from '@kubernetes/client-node';
import { extractClusters } from '../../lib/configdump/clusters';
import { listenerCounts, routeCounts } from '../../lib/configdump/counts';
import { parseConfigDump } from '../../lib/configdump/parse';
import type { ClusterRow, ConfigDump, ResourceCounts } from '../../lib/configdump/types';
import { clusterCounterTable, parseEnvoyStatsText } from '../../lib/metrics/admin-stats';
import type { DetailParts, UsageTable } from '../../lib/proxies/detail';
import { errorText, KubeError, malformedAnswer } from '../kube/errors';
import { envoyAdminGet } from '../kube/podports';
import { failureReason } from './reason';
import { podKey } from '../../lib/refs/pod-ref';

/**
 * Typed reads of one proxy's Envoy admin (:15000 over port-forward). Every /config_dump call
 * names a `resource=` so secrets are never requested, and a `mask=` where only a few fields
 * are read.
 */
const CLUSTER_MASK =
  'cluster.name,cluster.type,cluster.cluster_type,cluster.eds_cluster_config,cluster.metadata';

export const ADMIN_PATHS = {
  dynamicClusters: `/config_dump?resource=dynamic_active_clusters&mask=${CLUSTER_MASK}`,
  staticClusters: `/config_dump?resource=static_clusters&mask=${CLUSTER_MASK}`,
  dynamicListeners:
    '/config_dump?resource=dynamic_listeners&mask=name,active_state.version_info,warming_state.version_info,draining_state.version_info',
  staticListeners: '/config_dump?resource=static_listeners&mask=listener.name',
  dynamicRoutes: '/config_dump?resource=dynamic_route_configs&mask=route_config.name',
  staticRoutes: '/config_dump?resource=static_route_configs&mask=route_config.name',
  // dots percent-encoded: the port-forward helper refuses `..` in a path
  usage: `/stats?usedonly&filter=${encodeURIComponent('^cluster\\..*\\.upstream_(rq|cx)_total$').replace(/\./g, '%2E')}`,
  rawDynamicClusters: '/config_dump?resource=dynamic_active_clusters',
  rawStaticClusters: '/config_dump?resource=static_clusters',
} as const;

type Get = (path: string) => Promise<string>;

function adminGetter(kc: KubeConfig, ns: string, pod: string, timeoutMs: number): Get {
  return async (path) => {
    const res = await envoyAdminGet(kc, ns, pod, path, { timeoutMs });
    if (res.status !== 200)
      throw new KubeError(
        'http',
        `Envoy admin of ${podKey(ns, pod)} ${path.split('?')[0]} answered ${res.status}: ${res.body.slice(0, 200)}`,
      );
    return res.body;
  };
}

function dumpOf(text: string, what: string): ConfigDump {
  const r = parseConfigDump(text);
  if (!r.dump)
    throw malformedAnswer(`Envoy admin ${what}`, r.errors.map((e) => e.message).join('; '));
  return r.dump;
}

function parseAdminJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw malformedAnswer(
      `Envoy admin ${what}`,
      `not JSON (${errorText(e)}): ${text.slice(0, 80)}`,
    );
  }
}

async function clusterPart(
  get: Get,
): Promise<{ rows: ClusterRow[]; warming: number; errors: string[] }> {
  const [dyn, stat] = await Promise.all([
    get(ADMIN_PATHS.dynamicClusters),
    get(ADMIN_PATHS.staticClusters),
  ]);
  const rows: ClusterRow[] = [];
  const errors: string[] = [];
  let warming = 0;
  for (const [text, what] of [
    [dyn, 'dynamic_active_clusters'],
    [stat, 'static_clusters'],
  ] as const) {
    const dump = dumpOf(text, what);
    // an empty `configs` (no static clusters) is not an error
    if (dump.resources.length === 0 && dump.sections.length === 0) continue;
    const x = extractClusters(dump);
    rows.push(...x.rows);
    warming += x.warming;
    errors.push(...x.errors.map((e) => `${what}: ${e.message}`));
  }
  return { rows, warming, errors };
}

function add(a: ResourceCounts, b: ResourceCounts): ResourceCounts {
  return {
    static: a.static + b.static,
    dynamic: a.dynamic + b.dynamic,
    warming: a.warming + b.warming,
    draining: a.draining + b.draining,
  };
}

async function countPart(
  get: Get,
  paths: [string, string],
  count: (d: ConfigDump) => ResourceCounts,
): Promise<ResourceCounts> {
  const [a, b] = await Promise.all(paths.map((p) => get(p)));
  return add(count(dumpOf(a ?? '', paths[0])), count(dumpOf(b ?? '', paths[1])));
}

async function usagePart(get: Get): Promise<UsageTable> {
  const parsed = parseEnvoyStatsText(await get(ADMIN_PATHS.usage));
  return { counters: clusterCounterTable(parsed.stats) };
}

/** Everything the per-proxy panel shows, each part read separately so one failure is one error. */
export async function readProxyDetailParts(
  kc: KubeConfig,
  namespace: string,
  name: string,
  timeoutMs: number,
): Promise<DetailParts> {
  const get = adminGetter(kc, namespace, name, timeoutMs);
  const [clusters, listeners, routes, usage] = await Promise.allSettled([
    clusterPart(get),
    countPart(get, [ADMIN_PATHS.dynamicListeners, ADMIN_PATHS.staticListeners], listenerCounts),
    countPart(get, [ADMIN_PATHS.dynamicRoutes, ADMIN_PATHS.staticRoutes], routeCounts),
    usagePart(get),
  ]);
  const errors: DetailParts['errors'] = [];
  const value = <T>(r: PromiseSettledResult<T>, part: string): T | null => {
    if (r.status === 'fulfilled') return r.value;
    errors.push({ part, message: failureReason(r.reason) });
    return null;
  };
  const c = value(clusters, 'clusters');
  for (const message of c?.errors ?? []) errors.push({ part: 'clusters', message });
  return {
    namespace,
    name,
    fetchedAt: new Date(),
    clusters: c ? { rows: c.rows, warming: c.warming } : null,
    listeners: value(listeners, 'listeners'),
    routes: value(routes, 'routes'),
    usage: value(usage, 'usage'),
    errors,
  };
}

/** The raw (unmasked) cluster sections, for download: `{dynamic_active_clusters, static_clusters}`. */
export async function readRawClusters(
  kc: KubeConfig,
  namespace: string,
  name: string,
  timeoutMs: number,
): Promise<string> {
  const get = adminGetter(kc, namespace, name, timeoutMs);
  const [dyn, stat] = await Promise.all([
    get(ADMIN_PATHS.rawDynamicClusters),
    get(ADMIN_PATHS.rawStaticClusters),
  ]);
  const dynamic = parseAdminJson(dyn, `${podKey(namespace, name)} dynamic_active_clusters`);
  const statics = parseAdminJson(stat, `${podKey(namespace, name)} static_clusters`);
  return JSON.stringify({ dynamic_active_clusters: dynamic, static_clusters: statics }, null, 2);
}
