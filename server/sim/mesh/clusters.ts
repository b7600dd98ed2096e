/**
 * The clusters istiod would push to one proxy, by Istio's rules: `outbound|PORT||FQDN` per
 * visible service port, `outbound|PORT|SUBSET|FQDN` per DestinationRule subset, ServiceEntry hosts,
 * `inbound|PORT||` for the pod's own service ports (Istio 1.10+ naming), the fixed dynamic
 * clusters and the bootstrap (static) ones.
 */
import type { DestinationRule, OutlierDetection, Pod, Service } from '../../../lib/kube/types';
import type { VisiblePort, VisibleService } from '../../../lib/scoping/visibility';
import {
  destinationRuleFor,
  indexDestinationRules,
  type DestinationRuleIndex,
} from '../../../lib/scoping/destinationrule';
import { inboundClusterKeys, servicesOfPod, targetPortOf } from '../../../lib/scoping/inbound';
import { outboundClusterKeys } from '../../../lib/scoping/outbound';
import { compareVersions } from '../../../lib/scoping/proxy';
import { portProtocol } from './protocol';

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
  destinationRules: readonly DestinationRule[] | DestinationRuleIndex,
  clientNamespace: string,
  rootNamespace: string,
): SimCluster[] {
  const index =
    destinationRules instanceof Map
      ? destinationRules
      : indexDestinationRules(destinationRules as DestinationRule[]);
  const keys = outboundClusterKeys(visible, (svc) =>
    destinationRuleFor(svc.hostname, clientNamespace, svc.namespace, index, rootNamespace),
  );
  return keys.map((k) => {
    const dr = k.destinationRule;
    const base: SimCluster = {
      name: k.name,
      static: false,
      type: outboundType(k.service),
      direction: 'outbound',
      port: k.port.port,
      host: k.service.hostname,
      protocol: portProtocol(k.port, k.service.kind),
      service: k.service,
      servicePort: k.port,
      destinationRule: dr
        ? { namespace: dr.metadata.namespace ?? 'default', name: dr.metadata.name }
        : undefined,
      outlierDetection: dr?.spec?.trafficPolicy?.outlierDetection,
    };
    if (!k.subset) return base;
    const subset = dr?.spec?.subsets?.[k.subset.index];
    return {
      ...base,
      subset: k.subset.name,
      subsetLabels: k.subset.labels,
      outlierDetection: subset?.trafficPolicy?.outlierDetection ?? base.outlierDetection,
    };
  });
}

export { targetPortOf, servicesOfPod };

/**
 * Inbound clusters for the pod's own service ports: `inbound|TARGETPORT||` since Istio 1.10,
 * `inbound|PORT|PORTNAME|FQDN` before.
 */
export function inboundClusters(
  pod: Pod,
  services: readonly Service[],
  version: string,
): SimCluster[] {
  return inboundClusterKeys(pod, services, version).map((k) => ({
    name: k.name,
    static: false,
    type: k.modern ? 'ORIGINAL_DST' : 'STATIC',
    direction: 'inbound',
    port: k.targetPort,
    host: k.modern ? '' : k.fqdn,
    protocol: portProtocol(
      {
        port: k.port.port,
        name: k.port.name,
        protocol: k.port.protocol,
        appProtocol: k.port.appProtocol,
      },
      'Service',
    ),
    localAddress: { address: '127.0.0.1', port: k.targetPort },
  }));
}
