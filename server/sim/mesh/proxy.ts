/**
 * Everything one simulated proxy knows, gathered once per request: its clusters (from the scope
 * cache), endpoints, node identity, timings and xDS version.
 */
import type { Pod } from '../../../lib/kube/types';
import { proxyInitMs } from './annotations';
import type { SimCluster } from './clusters';
import type { EndpointIndex } from './endpoints';
import type { ProxyClusters } from './scope';
import { isGateway, podIp, podKey, podNamespace, proxyStartedAt, stableHash } from './world';

export interface ProxyContext {
  pod: Pod;
  key: string;
  ip: string;
  now: Date;
  clusters: ProxyClusters;
  endpoints: EndpointIndex;
  /** When Envoy started (istio-proxy startedAt, else pod start, else now). */
  startedAt: Date;
  initMs: number;
  /** xDS version_info: push time and a counter derived from the config version key. */
  versionInfo: string;
  configVersion: string;
}

export function allClusters(ctx: ProxyContext): SimCluster[] {
  return [...ctx.clusters.staticClusters, ...ctx.clusters.dynamicClusters];
}

/** Start to LIVE: the scenario's value, else grows with config size (300 ms + 0.8 ms per cluster). */
export function initializationMs(pod: Pod, clusterCount: number): number {
  const fromAnnotation = proxyInitMs(pod);
  if (fromAnnotation !== undefined) return fromAnnotation;
  return Math.round(300 + clusterCount * 0.8 + (stableHash(podKey(pod)) % 200));
}

export function buildProxyContext(
  pod: Pod,
  now: Date,
  clusters: ProxyClusters,
  endpoints: EndpointIndex,
  configVersion: string,
): ProxyContext {
  const started =
    proxyStartedAt(pod) ??
    (pod.status?.startTime ? new Date(Date.parse(pod.status.startTime)) : undefined) ??
    now;
  const count = clusters.staticClusters.length + clusters.dynamicClusters.length;
  const pushAt = new Date(Math.max(started.getTime(), 0));
  return {
    pod,
    key: podKey(pod),
    ip: podIp(pod) ?? '0.0.0.0',
    now,
    clusters,
    endpoints,
    startedAt: started,
    initMs: initializationMs(pod, count),
    versionInfo: `${pushAt.toISOString().replace(/\.\d+Z$/, 'Z')}/${(stableHash(configVersion) % 9000) + 1}`,
    configVersion,
  };
}

export function nodeId(ctx: ProxyContext): string {
  const ns = podNamespace(ctx.pod);
  const kind = isGateway(ctx.pod) ? 'router' : 'sidecar';
  return `${kind}~${ctx.ip}~${ctx.pod.metadata.name}.${ns}~${ns}.svc.cluster.local`;
}

export function nodeJson(ctx: ProxyContext): Record<string, unknown> {
  const pod = ctx.pod;
  const ns = podNamespace(pod);
  const labels = pod.metadata.labels ?? {};
  const app = labels['app.kubernetes.io/name'] ?? labels.app ?? pod.metadata.name;
  const [major, minor, patch] = ctx.clusters.version.split('.').map((x) => parseInt(x, 10) || 0);
  return {
    id: nodeId(ctx),
    cluster: `${app}.${ns}`,
    metadata: {
      ISTIO_VERSION: ctx.clusters.version,
      NAME: pod.metadata.name,
      NAMESPACE: ns,
      LABELS: labels,
      INSTANCE_IPS: ctx.ip,
      CLUSTER_ID: 'Kubernetes',
      MESH_ID: 'cluster.local',
      INTERCEPTION_MODE: 'REDIRECT',
      SERVICE_ACCOUNT: pod.spec?.serviceAccountName ?? 'default',
      WORKLOAD_NAME: app,
      OWNER: `kubernetes://apis/v1/namespaces/${ns}/pods/${pod.metadata.name}`,
      PROXY_CONFIG: {
        discoveryAddress: 'istiod.istio-system.svc:15012',
        binaryPath: '/usr/local/bin/envoy',
      },
    },
    locality: {},
    user_agent_name: 'envoy',
    user_agent_build_version: {
      version: { major_number: 1, minor_number: (minor ?? 24) + 8, patch: patch ?? 0 },
      metadata: { 'build.type': 'RELEASE', 'revision.status': 'Clean', 'istio.major': major ?? 1 },
    },
  };
}

export function liveAt(ctx: ProxyContext): Date {
  return new Date(ctx.startedAt.getTime() + ctx.initMs);
}
