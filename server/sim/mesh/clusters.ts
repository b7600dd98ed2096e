/**
 * The clusters the simulated istiod pushes to one proxy, from its own model of Istio
 * (./istio-model, written from istio/istio pilot/pkg/networking/core/cluster.go and
 * cluster_builder.go):
 *
 * - outbound, per visible service and port: `outbound|PORT||FQDN`, plus `outbound|PORT|SUBSET|FQDN`
 *   per subset of the DestinationRule that applies. UDP ports get none; neither do ExternalName
 *   Services from 1.21 (ENABLE_EXTERNAL_NAME_ALIAS made them aliases). The type follows the
 *   resolution (convertResolution): EDS, ORIGINAL_DST for headless and `resolution: NONE` (EDS on
 *   gateways), STRICT_DNS, LOGICAL_DNS. A DNS subset cluster whose labels select no endpoint is
 *   not built (buildCluster drops DNS clusters without endpoints); a subset whose load balancer is
 *   PASSTHROUGH is ORIGINAL_DST.
 * - inbound (sidecars): `inbound|TARGETPORT||` per distinct target port of the Services that select
 *   the pod (Istio 1.10+; before, `inbound|PORT|PORTNAME|FQDN` per service port), or one per
 *   ingress listener port when the pod's Sidecar declares ingress listeners.
 * - BlackHoleCluster on every proxy; PassthroughCluster and InboundPassthroughCluster
 *   (InboundPassthroughClusterIpv4 before 1.21) on sidecars only: gateways have no original-dst
 *   listeners.
 * - the bootstrap (static) clusters.
 */
import type { OutlierDetection, Pod, Service, Sidecar } from '../../../lib/kube/types';
import { destinationRuleFor, type SimDestinationRuleIndex } from './istio-model/destination-rules';
import { kubeServiceHost } from './istio-model/hosts';
import type { SimPort, SimService } from './istio-model/service-registry';
import { atLeast } from './istio-model/version';
import { labelsSubsetOf, proxyServiceTargets } from './istio-model/service-targets';
import { portProtocol } from './istio-model/protocol';

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
  service?: SimService;
  servicePort?: SimPort;
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

/** BlackHoleCluster everywhere; the passthrough clusters on sidecars only. */
export function fixedDynamicClusters(version: string, gateway: boolean): SimCluster[] {
  const out: SimCluster[] = [{ name: 'BlackHoleCluster', static: false, type: 'STATIC' }];
  if (gateway) return out;
  out.push({ name: 'PassthroughCluster', static: false, type: 'ORIGINAL_DST' });
  const inbound = atLeast(version, '1.21')
    ? 'InboundPassthroughCluster'
    : 'InboundPassthroughClusterIpv4';
  out.push({ name: inbound, static: false, type: 'ORIGINAL_DST' });
  return out;
}

/** The proxy a cluster set is built for. */
export interface ProxyFacts {
  namespace: string;
  labels: Readonly<Record<string, string>>;
  version: string;
  gateway: boolean;
}

/** convertResolution, with ExternalName Services as DNS before they became aliases. */
function clusterType(svc: SimService, gateway: boolean): ClusterType {
  switch (svc.resolution) {
    case 'DNSLB':
    case 'Alias':
      return 'STRICT_DNS';
    case 'DNSRoundRobinLB':
      return 'LOGICAL_DNS';
    case 'Passthrough':
      return gateway ? 'EDS' : 'ORIGINAL_DST';
    default:
      return 'EDS';
  }
}

const isDns = (t: ClusterType) => t === 'STRICT_DNS' || t === 'LOGICAL_DNS';

function builtFor(svc: SimService, version: string): boolean {
  return !(svc.resolution === 'Alias' && atLeast(version, '1.21'));
}

/** Outbound clusters for the services a proxy sees (one entry per hostname). */
export function outboundClusters(
  visible: readonly SimService[],
  rules: SimDestinationRuleIndex,
  proxy: ProxyFacts,
): SimCluster[] {
  const out: SimCluster[] = [];
  for (const svc of visible) {
    if (!builtFor(svc, proxy.version)) continue;
    const dr = destinationRuleFor(rules, proxy.namespace, proxy.labels, svc);
    const type = clusterType(svc, proxy.gateway);
    for (const port of svc.ports) {
      const protocol = portProtocol(port, svc.registry);
      if (protocol === 'UDP') continue;
      const base: SimCluster = {
        name: `outbound|${port.port}||${svc.hostname}`,
        static: false,
        type,
        direction: 'outbound',
        port: port.port,
        host: svc.hostname,
        protocol,
        service: svc,
        servicePort: port,
        destinationRule: dr?.from[0],
        outlierDetection: dr?.trafficPolicy?.outlierDetection,
      };
      out.push(base);
      for (const subset of dr?.subsets ?? []) {
        const labels = subset.labels ?? {};
        const passthrough =
          (subset.trafficPolicy?.loadBalancer as { simple?: string } | undefined)?.simple ===
          'PASSTHROUGH';
        const subsetType = passthrough ? 'ORIGINAL_DST' : type;
        if (
          isDns(subsetType) &&
          !(svc.endpointLabels ?? [{}]).some((l) => labelsSubsetOf(labels, l))
        )
          continue;
        out.push({
          ...base,
          name: `outbound|${port.port}|${subset.name}|${svc.hostname}`,
          type: subsetType,
          subset: subset.name,
          subsetLabels: labels,
          outlierDetection: subset.trafficPolicy?.outlierDetection ?? base.outlierDetection,
        });
      }
    }
  }
  return out;
}

interface IngressListener {
  port?: { number?: number; name?: string; protocol?: string };
  defaultEndpoint?: string;
}

function ingressListeners(sidecar: Sidecar | undefined): IngressListener[] {
  const raw: unknown = sidecar?.spec?.ingress;
  return Array.isArray(raw) ? (raw as IngressListener[]) : [];
}

function inboundCluster(
  name: string,
  targetPort: number,
  port: SimPort,
  modern: boolean,
  host: string,
): SimCluster {
  return {
    name,
    static: false,
    type: modern ? 'ORIGINAL_DST' : 'STATIC',
    direction: 'inbound',
    port: targetPort,
    host: modern ? '' : host,
    protocol: portProtocol(port, 'Kubernetes'),
    localAddress: { address: '127.0.0.1', port: targetPort },
  };
}

/**
 * Inbound clusters (buildInboundClusters): from the Sidecar's ingress listeners when it declares
 * any, one per listener port; else from the pod's ServiceTargets: since Istio 1.10 one cluster
 * per target port (the first target of a port names it: the first Service wins a shared port),
 * before that one per Service port, named after the Service.
 */
export function inboundClusters(
  pod: Pod,
  services: readonly Service[],
  version: string,
  sidecar?: Sidecar,
): SimCluster[] {
  const modern = atLeast(version, '1.10');
  const ns = pod.metadata.namespace ?? 'default';
  const ingress = ingressListeners(sidecar);
  const byName = new Map<string, SimCluster>();
  const add = (c: SimCluster) => {
    if (!byName.has(c.name)) byName.set(c.name, c);
  };
  if (ingress.length > 0) {
    const host = `${sidecar?.metadata.name ?? ''}.${ns}`;
    for (const l of ingress) {
      const number = l.port?.number;
      if (typeof number !== 'number') continue;
      const port: SimPort = { port: number, name: l.port?.name, appProtocol: l.port?.protocol };
      const name = modern
        ? `inbound|${number}||`
        : `inbound|${number}|${l.port?.name ?? ''}|${host}`;
      add(inboundCluster(name, number, port, modern, host));
    }
    return [...byName.values()];
  }
  for (const target of proxyServiceTargets(pod, services)) {
    const fqdn = kubeServiceHost(target.service.metadata.name, ns);
    const p = target.port;
    const name = modern
      ? `inbound|${target.targetPort}||`
      : `inbound|${p.port}|${p.name ?? ''}|${fqdn}`;
    const port: SimPort = {
      port: p.port,
      name: p.name,
      protocol: p.protocol,
      appProtocol: p.appProtocol,
    };
    add(inboundCluster(name, target.targetPort, port, modern, fqdn));
  }
  return [...byName.values()];
}
