/**
 * Simulated istiod debug and metrics endpoints on :15014. Each proxy is connected to exactly one
 * istiod replica (stable hash of POD.NS over the running replicas, sorted by name): a replica
 * lists and answers only for its own proxies, 404 for the others, like the real ones.
 */
import type { Pod } from '../../../lib/kube/types';
import { staleXdsTypes } from './annotations';
import { claJson } from './clusterjson';
import { configDumpResponse } from './configdump';
import type { ProxyContext } from './proxy';
import type { PodHttpResponse } from './types';
import type { ShardEndpoint, XdsModel } from './istio-model/xds-push';
import { objectKey } from '../../../lib/refs/object-ref';
import {
  hasProxy,
  isGateway,
  podIp,
  podKey,
  podNamespace,
  proxyReady,
  proxyRunning,
  proxyVersion,
  stableHash,
  versionKey,
  type MeshConfig,
  type MeshView,
} from './world';

export function isIstiod(pod: Pod, mesh: MeshConfig): boolean {
  return podNamespace(pod) === mesh.istioNamespace && pod.metadata.labels?.app === 'istiod';
}

function runningIstiods(view: MeshView, mesh: MeshConfig): Pod[] {
  return view.pods
    .filter(
      (p) =>
        isIstiod(p, mesh) &&
        podIp(p) &&
        !p.metadata.deletionTimestamp &&
        p.status?.phase !== 'Failed' &&
        p.status?.phase !== 'Succeeded',
    )
    .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
}

/** Proxies connected to `istiod` (running proxy container with an IP). */
export function connectedProxies(view: MeshView, mesh: MeshConfig, istiod: Pod): Pod[] {
  const replicas = runningIstiods(view, mesh);
  const index = replicas.findIndex((p) => p.metadata.name === istiod.metadata.name);
  if (index < 0) return [];
  return view.pods.filter(
    (p) =>
      hasProxy(p) &&
      proxyRunning(p) &&
      podIp(p) &&
      stableHash(podKey(p)) % replicas.length === index,
  );
}

/** A 32-bit integer finaliser (murmur3's): spreads one hash into the nonce's other words. */
function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const hex8 = (n: number) => (n >>> 0).toString(16).padStart(8, '0');

/** A UUID-shaped nonce, stable for its seed (istiod's are random UUIDs): two words of hash. */
function nonce(seed: string): string {
  const h = stableHash(seed);
  const a = hex8(h);
  const b = hex8(mix(h ^ 0x9e3779b9));
  return `${a}-${b.slice(0, 4)}-4${b.slice(5, 8)}-a${a.slice(1, 4)}-${b.slice(2)}${a.slice(4)}${b.slice(0, 2)}`;
}

export interface SyncStatus {
  cluster_id: string;
  proxy: string;
  proxy_type: string;
  proxy_version: string;
  istio_version: string;
  cluster_sent?: string;
  cluster_acked?: string;
  listener_sent?: string;
  listener_acked?: string;
  route_sent?: string;
  route_acked?: string;
  endpoint_sent?: string;
  endpoint_acked?: string;
}

/** One /debug/syncz row. Not-ready proxies have not ACKed yet; `sim.meshdx.io/xds-stale` lags some types. */
export function syncStatus(pod: Pod, configVersion: string): SyncStatus {
  const kept = rowsKept.get(pod);
  if (kept?.configVersion === configVersion) return kept.row;
  const row = newSyncStatus(pod, configVersion);
  rowsKept.set(pod, { configVersion, row });
  return row;
}

/**
 * Rows kept per pod object (a changed pod is a new object) and config version: istiod tracks
 * each connection's state as it pushes, so one changed pod must not cost every proxy's row.
 */
const rowsKept = new WeakMap<Pod, { configVersion: string; row: SyncStatus }>();

function newSyncStatus(pod: Pod, configVersion: string): SyncStatus {
  const version = proxyVersion(pod);
  const stale = staleXdsTypes(pod);
  const ready = proxyReady(pod);
  const row: SyncStatus = {
    cluster_id: 'Kubernetes',
    proxy: podKey(pod),
    proxy_type: isGateway(pod) ? 'router' : 'sidecar',
    proxy_version: version,
    istio_version: version,
  };
  const types: [keyof SyncStatus, keyof SyncStatus, string][] = [
    ['cluster_sent', 'cluster_acked', 'cds'],
    ['listener_sent', 'listener_acked', 'lds'],
    ['route_sent', 'route_acked', 'rds'],
    ['endpoint_sent', 'endpoint_acked', 'eds'],
  ];
  for (const [sent, acked, type] of types) {
    const current = nonce(`${configVersion}|${row.proxy}|${type}`);
    row[sent] = current;
    if (ready) row[acked] = stale.has(type) ? nonce(`old|${row.proxy}|${type}`) : current;
  }
  return row;
}

function json(status: number, body: unknown): PodHttpResponse {
  return { status, contentType: 'application/json', body: JSON.stringify(body, null, 2) + '\n' };
}

function histogram(name: string, labels: string, buckets: number[], values: number[]): string[] {
  const lab = labels ? `${labels},` : '';
  const lines = buckets.map(
    (le) => `${name}_bucket{${lab}le="${le}"} ${values.filter((v) => v <= le).length}`,
  );
  lines.push(`${name}_bucket{${lab}le="+Inf"} ${values.length}`);
  lines.push(`${name}_sum${labels ? `{${labels}}` : ''} ${values.reduce((a, b) => a + b, 0)}`);
  lines.push(`${name}_count${labels ? `{${labels}}` : ''} ${values.length}`);
  return lines;
}

export interface IstiodDeps {
  view: MeshView;
  mesh: MeshConfig;
  configVersion: string;
  contextFor(pod: Pod): ProxyContext;
  /** The layer-delay model, when on: pushes, nonces and ACKs follow it. */
  xds?: XdsModel;
  now?: number;
}

function metrics(istiod: Pod, deps: IstiodDeps): string {
  const proxies = connectedProxies(deps.view, deps.mesh, istiod);
  const services = deps.view.services.length + deps.view.serviceEntries.length;
  const pushes = 1 + (stableHash(deps.configVersion) % 50);
  const version = proxyVersion(istiod);
  const sample = proxies.slice(0, 200).map((p) => deps.contextFor(p));
  const sizes = sample.map(
    (c) => (c.clusters.dynamicClusters.length + c.clusters.staticClusters.length) * 1800,
  );
  const convergence = proxies.map((p) => ((stableHash(podKey(p)) % 900) + 50) / 1000);
  const lines = [
    '# HELP pilot_xds Number of endpoints connected to this pilot using XDS.',
    '# TYPE pilot_xds gauge',
    `pilot_xds{version="${version}"} ${proxies.length}`,
    '# HELP pilot_services Total services known to pilot.',
    '# TYPE pilot_services gauge',
    `pilot_services ${services}`,
    '# HELP pilot_xds_pushes Pilot build and send errors for lds, rds, cds and eds.',
    '# TYPE pilot_xds_pushes counter',
    ...['cds', 'eds', 'lds', 'rds'].map(
      (t) => `pilot_xds_pushes{type="${t}"} ${pushes * Math.max(1, proxies.length)}`,
    ),
    '# HELP pilot_proxy_convergence_time Delay in seconds between config change and a proxy receiving all required configuration.',
    '# TYPE pilot_proxy_convergence_time histogram',
    ...histogram('pilot_proxy_convergence_time', '', [0.1, 0.5, 1, 3, 5, 10, 20, 30], convergence),
    '# HELP pilot_xds_config_size_bytes Distribution of configuration sizes pushed to clients',
    '# TYPE pilot_xds_config_size_bytes histogram',
    ...histogram(
      'pilot_xds_config_size_bytes',
      'type="type.googleapis.com/envoy.config.cluster.v3.Cluster"',
      [1, 10000, 1000000, 4000000, 10000000, 40000000],
      sizes,
    ),
  ];
  return lines.join('\n') + '\n';
}

/**
 * /debug/syncz answers kept while the pod list is the same array (the store hands out one per
 * change), by replica, config version and mesh config: a real istiod keeps this state in
 * memory, and building 20,000 rows on every request cost the one-threaded simulator ~0.5 s.
 */
const synczKept = new WeakMap<readonly Pod[], Map<string, PodHttpResponse>>();

/** A syncz row whose EDS nonces are the model's: the last push sent, and the last one ACKed. */
function timedSyncStatus(pod: Pod, deps: IstiodDeps, xds: XdsModel, now: number): SyncStatus {
  const row = { ...syncStatus(pod, deps.configVersion) };
  const { sent, acked } = xds.stateOf(pod, now);
  delete row.endpoint_sent;
  delete row.endpoint_acked;
  if (sent) row.endpoint_sent = xds.nonceOf(sent, row.proxy, nonce);
  if (acked && proxyReady(pod)) row.endpoint_acked = xds.nonceOf(acked, row.proxy, nonce);
  return row;
}

function syncz(istiod: Pod, deps: IstiodDeps): PodHttpResponse {
  const xds = deps.xds;
  if (xds !== undefined) {
    const now = deps.now ?? Date.now();
    return json(
      200,
      connectedProxies(deps.view, deps.mesh, istiod).map((p) => timedSyncStatus(p, deps, xds, now)),
    );
  }
  let kept = synczKept.get(deps.view.pods);
  if (!kept) {
    kept = new Map();
    synczKept.set(deps.view.pods, kept);
  }
  const key = `${istiod.metadata.name}|${deps.configVersion}|${versionKey([deps.view.configMaps])}`;
  let answer = kept.get(key);
  if (!answer) {
    const proxies = connectedProxies(deps.view, deps.mesh, istiod);
    answer = json(
      200,
      proxies.map((p) => syncStatus(p, deps.configVersion)),
    );
    kept.set(key, answer);
  }
  return answer;
}

/** GET on an istiod pod's :15014. */
export function istiodHttp(
  istiod: Pod,
  path: string,
  query: URLSearchParams,
  deps: IstiodDeps,
): PodHttpResponse {
  if (path === '/metrics')
    return { status: 200, contentType: 'text/plain; version=0.0.4', body: metrics(istiod, deps) };
  if (path === '/debug/syncz') return syncz(istiod, deps);
  if (path === '/debug/endpointShardz') return json(200, endpointShardz(istiod, deps));
  if (path === '/debug/push_status') return json(200, {});
  const proxies = connectedProxies(deps.view, deps.mesh, istiod);
  if (path === '/debug/config_dump' || path === '/debug/edsz') {
    const id = query.get('proxyID') ?? '';
    if (!id)
      return {
        status: 400,
        contentType: 'text/plain',
        body: 'You must provide a proxyID in the query string\n',
      };
    const pod = proxies.find((p) => podKey(p) === id || p.metadata.name === id);
    if (!pod)
      return {
        status: 404,
        contentType: 'text/plain',
        body: `Proxy not connected to this Pilot instance: ${id}\n`,
      };
    const ctx = deps.contextFor(pod);
    if (path === '/debug/config_dump') return configDumpResponse(ctx, new URLSearchParams());
    const eds = ctx.clusters.dynamicClusters
      .filter((c) => c.type === 'EDS')
      .map((c) => claJson(c, ctx.endpoints.forCluster(c)));
    return json(200, eds);
  }
  return { status: 404, contentType: 'text/plain', body: '404 page not found\n' };
}

/** Istio's HealthStatus numbers (pilot/pkg/model/service.go): Healthy 1, UnHealthy 2, Terminating 4. */
function healthStatus(e: ShardEndpoint): number {
  return e.ready ? 1 : e.terminating ? 4 : 2;
}

/** `1.23` and later write `Addresses` (dual stack), earlier ones `Address`. */
function addressField(version: string, address: string): Record<string, unknown> {
  const [major, minor] = version.split('.').map(Number);
  const newer = (major ?? 1) > 1 || (minor ?? 0) >= 23;
  return newer ? { Addresses: [address] } : { Address: address };
}

/**
 * /debug/endpointShardz: `{hostname: {namespace: {Shards: {"Kubernetes/Kubernetes": [IstioEndpoint]},
 * ServiceAccounts}}}` from the shards istiod holds (the model's, else the EndpointSlices now).
 */
function endpointShardz(istiod: Pod, deps: IstiodDeps): Record<string, unknown> {
  const shards = new Map<string, readonly ShardEndpoint[]>();
  if (deps.xds !== undefined) for (const [k, v] of deps.xds.shardz()) shards.set(k, v);
  else {
    for (const slice of deps.view.endpointSlices) {
      const svc = slice.metadata.labels?.['kubernetes.io/service-name'];
      if (svc === undefined) continue;
      const ports: Record<string, number> = {};
      for (const p of slice.ports ?? []) if (p.port !== undefined) ports[p.name ?? ''] = p.port;
      const list = [...(shards.get(objectKey(slice.metadata.namespace ?? 'default', svc)) ?? [])];
      for (const ep of slice.endpoints ?? [])
        for (const address of ep.addresses ?? [])
          list.push({
            address,
            ready: ep.conditions?.ready !== false,
            terminating: ep.conditions?.terminating === true,
            pod: ep.targetRef?.name
              ? { namespace: ep.targetRef.namespace ?? '', name: ep.targetRef.name }
              : undefined,
            nodeName: ep.nodeName,
            ports,
          });
      shards.set(objectKey(slice.metadata.namespace ?? 'default', svc), list);
    }
  }
  const version = proxyVersion(istiod);
  const domain = 'cluster.local';
  const out: Record<string, Record<string, unknown>> = {};
  for (const [key, eps] of shards) {
    const i = key.indexOf('/');
    const ns = key.slice(0, i);
    const name = key.slice(i + 1);
    const host = `${name}.${ns}.svc.${domain}`;
    const entries = eps.flatMap((e) =>
      Object.entries(e.ports).map(([portName, port]) => ({
        Labels: null,
        ...addressField(version, e.address),
        ServicePortName: portName,
        ServiceAccount: `spiffe://${domain}/ns/${ns}/sa/default`,
        Network: '',
        Locality: { Label: '', ClusterID: 'Kubernetes' },
        EndpointPort: port,
        LbWeight: 0,
        TLSMode: 'istio',
        Namespace: ns,
        WorkloadName: e.pod?.name ?? '',
        HostName: '',
        SubDomain: '',
        HealthStatus: healthStatus(e),
        NodeName: e.nodeName ?? '',
      })),
    );
    out[host] = { [ns]: { Shards: { 'Kubernetes/Kubernetes': entries }, ServiceAccounts: {} } };
  }
  return out;
}
