/**
 * The clusters istiod would push to one proxy, by Istio's rules: `outbound|PORT||FQDN` per
 * visible service port, `outbound|PORT|SUBSET|FQDN` per DestinationRule subset, ServiceEntry hosts,
 * `inbound|PORT||` for the pod's own service ports (Istio 1.10+ naming), the fixed dynamic
 * clusters and the bootstrap (static) ones.
 */
import type { DestinationRule, OutlierDetection, Pod, Service } from '../../../lib/kube/types';
import type { VisiblePort, VisibleService } from '../../../lib/scoping/visibility';
import { labelsMatch } from '../../../lib/scoping/visibility';
import { serviceFqdn } from '../../../lib/scoping/hosts';
import { destinationRuleFor } from './destinationrules';
import { portProtocol } from './protocol';
import { compareVersions, podNamespace } from './world';

export type ClusterType = 'EDS' | 'STATIC' | 'STRICT_DNS' | 'LOGICAL_DNS' | 'ORIGINAL_DST';

export interface SimCluster {
  name: string;
  static: boolean;
  type: ClusterType;
  direction?: 'outbound' | 'inbound';
  port?: number;
  subset?: string;
  host?: string;
  protocol?: string;
  service?: VisibleService;
  servicePort?: VisiblePort;
  /** Labels a subset selects (endpoints are filtered by them). */
  subsetLabels?: Record<string, string>;
  destinationRule?: { namespace: string; name: string };
  outlierDetection?: OutlierDetection;
  /** Static clusters: where they point (127.0.0.1 or a unix socket). */
  localAddress?: { address: string; port?: number; pipe?: string };
}

export const STATIC_CLUSTERS: readonly SimCluster[] = [
  {
    name: 'prometheus_stats',
    static: true,
    type: 'STATIC',
    localAddress: { address: '127.0.0.1', port: 15000 },
  },
  {
    name: 'agent',
    static: true,
    type: 'STATIC',
    localAddress: { address: '127.0.0.1', port: 15020 },
  },
  {
    name: 'sds-grpc',
    static: true,
    type: 'STATIC',
    localAddress: { address: '', pipe: './var/run/secrets/workload-spiffe-uds/socket' },
  },
  {
    name: 'xds-grpc',
    static: true,
    type: 'STATIC',
    localAddress: { address: '', pipe: './etc/istio/proxy/XDS' },
  },
  {
    name: 'zipkin',
    static: true,
    type: 'STRICT_DNS',
    localAddress: { address: 'zipkin.istio-system', port: 9411 },
  },
];

/** BlackHole/Passthrough clusters every sidecar gets (InboundPassthroughClusterIpv4 before 1.21). */
export function fixedDynamicClusters(version: string, gateway: boolean): SimCluster[] {
  const out: SimCluster[] = [
    { name: 'BlackHoleCluster', static: false, type: 'STATIC' },
    { name: 'PassthroughCluster', static: false, type: 'ORIGINAL_DST' },
  ];
  if (!gateway) {
    const inbound =
      compareVersions(version, '1.21') < 0
        ? 'InboundPassthroughClusterIpv4'
        : 'InboundPassthroughCluster';
    out.push({ name: inbound, static: false, type: 'ORIGINAL_DST' });
  }
  return out;
}

function outboundType(svc: VisibleService): ClusterType {
  if (svc.kind === 'Service') {
    if (svc.serviceType === 'ExternalName') return 'STRICT_DNS';
    if (svc.address === 'None') return 'ORIGINAL_DST';
    return 'EDS';
  }
  switch ((svc.resolution ?? 'NONE').toUpperCase()) {
    case 'DNS':
      return 'STRICT_DNS';
    case 'DNS_ROUND_ROBIN':
      return 'LOGICAL_DNS';
    case 'STATIC':
      return 'EDS';
    default:
      return 'ORIGINAL_DST';
  }
}

/** Outbound clusters for the visible services of a proxy in `clientNamespace`. */
export function outboundClusters(
  visible: readonly VisibleService[],
  destinationRules: readonly DestinationRule[],
  clientNamespace: string,
  rootNamespace: string,
): SimCluster[] {
  const out: SimCluster[] = [];
  const seen = new Set<string>();
  for (const svc of visible) {
    const dr = destinationRuleFor(
      svc.hostname,
      clientNamespace,
      svc.namespace,
      destinationRules,
      rootNamespace,
    );
    const drRef = dr
      ? { namespace: dr.metadata.namespace ?? 'default', name: dr.metadata.name }
      : undefined;
    const type = outboundType(svc);
    for (const port of svc.ports) {
      const base = {
        static: false,
        type,
        direction: 'outbound' as const,
        port: port.port,
        host: svc.hostname,
        protocol: portProtocol(port, svc.kind),
        service: svc,
        servicePort: port,
        destinationRule: drRef,
        outlierDetection: dr?.spec?.trafficPolicy?.outlierDetection,
      };
      const name = `outbound|${port.port}||${svc.hostname}`;
      if (seen.has(name)) continue; // same host from two registries: first wins, like istiod
      seen.add(name);
      out.push({ ...base, name });
      for (const subset of dr?.spec?.subsets ?? []) {
        out.push({
          ...base,
          name: `outbound|${port.port}|${subset.name}|${svc.hostname}`,
          subset: subset.name,
          subsetLabels: subset.labels ?? {},
          outlierDetection: subset.trafficPolicy?.outlierDetection ?? base.outlierDetection,
        });
      }
    }
  }
  return out;
}

/** Resolve a service targetPort (number or container port name) against a pod; default: the port. */
export function targetPortOf(
  pod: Pod | undefined,
  port: { port: number; targetPort?: number | string },
): number | undefined {
  const t = port.targetPort;
  if (t === undefined || t === '') return port.port;
  if (typeof t === 'number') return t;
  if (/^\d+$/.test(t)) return Number(t);
  if (!pod) return undefined;
  for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])]) {
    const hit = c.ports?.find((p) => p.name === t);
    if (hit) return hit.containerPort;
  }
  return undefined;
}

/** Services whose selector picks the pod (same namespace). */
export function servicesOfPod(pod: Pod, services: readonly Service[]): Service[] {
  const ns = podNamespace(pod);
  return services.filter(
    (s) =>
      (s.metadata.namespace ?? 'default') === ns &&
      labelsMatch(s.spec?.selector, pod.metadata.labels),
  );
}

/**
 * Inbound clusters for the pod's own service ports: `inbound|TARGETPORT||` since Istio 1.10,
 * `inbound|PORT|PORTNAME|FQDN` before.
 */
export function inboundClusters(
  pod: Pod,
  services: readonly Service[],
  version: string,
): SimCluster[] {
  const modern = compareVersions(version, '1.10') >= 0;
  const out: SimCluster[] = [];
  const seen = new Set<string>();
  for (const svc of servicesOfPod(pod, services)) {
    const ns = svc.metadata.namespace ?? 'default';
    for (const p of svc.spec?.ports ?? []) {
      const target = targetPortOf(pod, p);
      if (target === undefined) continue;
      const fqdn = serviceFqdn(svc.metadata.name, ns);
      const name = modern ? `inbound|${target}||` : `inbound|${p.port}|${p.name ?? ''}|${fqdn}`;
      if (seen.has(name)) continue;
      seen.add(name);
      out.push({
        name,
        static: false,
        type: modern ? 'ORIGINAL_DST' : 'STATIC',
        direction: 'inbound',
        port: target,
        host: modern ? '' : fqdn,
        protocol: portProtocol(
          { port: p.port, name: p.name, protocol: p.protocol, appProtocol: p.appProtocol },
          'Service',
        ),
        localAddress: { address: '127.0.0.1', port: target },
      });
    }
  }
  return out;
}
