/**
 * The simulated istiod's service registry: Kubernetes Services and ServiceEntry hosts converted the
 * way istio/istio converts them (pilot/pkg/serviceregistry/kube/conversion.go ConvertService,
 * serviceregistry/serviceentry/conversion.go), and their visibility to a namespace
 * (pilot/pkg/model/push_context.go IsServiceVisible).
 */
import type { Service, ServiceEntry } from '../../../../lib/kube/types';
import { kubeServiceHost } from './hosts';

/** model.Resolution. */
export type Resolution =
  'ClientSideLB' | 'Passthrough' | 'DNSLB' | 'DNSRoundRobinLB' | 'DynamicDNS' | 'Alias';

export interface SimPort {
  port: number;
  name?: string;
  /** Kubernetes protocol (TCP, UDP, SCTP) or the ServiceEntry port protocol. */
  protocol?: string;
  appProtocol?: string;
  targetPort?: number | string;
}

export interface SimService {
  kind: 'Service' | 'ServiceEntry';
  namespace: string;
  /** Object name (the Service, or the ServiceEntry holding this host). */
  name: string;
  hostname: string;
  ports: SimPort[];
  /** Services: clusterIP ("None" when headless); ServiceEntries: first address. */
  address?: string;
  /** Services: spec.type. */
  serviceType?: string;
  /** ExternalName Services: the name they alias. */
  externalName?: string;
  resolution: Resolution;
  /** ServiceEntry `location: MESH_EXTERNAL`, or an ExternalName Service. */
  meshExternal: boolean;
  selector?: Record<string, string>;
  /** ServiceEntries: the labels of each endpoint (one unlabelled endpoint when none are listed). */
  endpointLabels?: Record<string, string>[];
  /** As written (annotation `networking.istio.io/exportTo` or spec.exportTo); empty: the default. */
  exportTo: readonly string[];
}

const nsOf = (o: { metadata: { namespace?: string } }) => o.metadata.namespace ?? 'default';

export function fromKubeService(s: Service): SimService {
  const ns = nsOf(s);
  const externalName =
    s.spec?.type === 'ExternalName'
      ? (s.spec as { externalName?: string }).externalName
      : undefined;
  const headless = s.spec?.clusterIP === 'None';
  const annotation = s.metadata.annotations?.['networking.istio.io/exportTo'] ?? '';
  return {
    kind: 'Service',
    namespace: ns,
    name: s.metadata.name,
    hostname: kubeServiceHost(s.metadata.name, ns),
    ports: (s.spec?.ports ?? []).map((p) => ({
      port: p.port,
      name: p.name,
      protocol: p.protocol,
      appProtocol: p.appProtocol,
      targetPort: p.targetPort,
    })),
    address: s.spec?.clusterIP,
    serviceType: s.spec?.type,
    externalName: externalName || undefined,
    // headless wins over ExternalName, as in ConvertService
    resolution: headless ? 'Passthrough' : externalName ? 'Alias' : 'ClientSideLB',
    meshExternal: Boolean(externalName),
    selector: s.spec?.selector,
    exportTo: annotation
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  };
}

const SE_RESOLUTION: Record<string, Resolution> = {
  NONE: 'Passthrough',
  STATIC: 'ClientSideLB',
  DNS: 'DNSLB',
  DNS_ROUND_ROBIN: 'DNSRoundRobinLB',
  DYNAMIC_DNS: 'DynamicDNS',
};

function endpointLabelsOf(se: ServiceEntry): Record<string, string>[] {
  const raw: unknown = (se.spec as { endpoints?: unknown }).endpoints;
  const list = Array.isArray(raw) ? raw : [];
  if (list.length === 0) return [{}];
  return list.map((e: unknown) => {
    const labels = e && typeof e === 'object' ? (e as { labels?: unknown }).labels : undefined;
    return labels && typeof labels === 'object' ? (labels as Record<string, string>) : {};
  });
}

/** One SimService per host of the ServiceEntry. */
export function fromServiceEntry(se: ServiceEntry): SimService[] {
  const ns = nsOf(se);
  const resolution = SE_RESOLUTION[(se.spec?.resolution ?? 'NONE').toUpperCase()] ?? 'Passthrough';
  return (se.spec?.hosts ?? []).map((host) => ({
    kind: 'ServiceEntry' as const,
    namespace: ns,
    name: se.metadata.name,
    hostname: host.toLowerCase(),
    ports: (se.spec.ports ?? []).map((p) => ({
      port: p.number,
      name: p.name,
      protocol: p.protocol,
      targetPort: p.targetPort,
    })),
    address: se.spec.addresses?.[0],
    resolution,
    meshExternal: (se.spec.location ?? 'MESH_EXTERNAL').toUpperCase() !== 'MESH_INTERNAL',
    endpointLabels: endpointLabelsOf(se),
    exportTo: se.spec.exportTo ?? [],
  }));
}

export function buildRegistry(
  services: readonly Service[],
  serviceEntries: readonly ServiceEntry[],
): SimService[] {
  return [...services.map(fromKubeService), ...serviceEntries.flatMap(fromServiceEntry)];
}

/**
 * IsServiceVisible: `*` everyone, `.` the owner's namespace, `~` nobody, else the namespaces
 * named; an empty exportTo takes MeshConfig defaultServiceExportTo (`*` unless set).
 */
export function visibleTo(
  exportTo: readonly string[],
  owner: string,
  client: string,
  defaults: readonly string[] = ['*'],
): boolean {
  const set = exportTo.length > 0 ? exportTo : defaults;
  return set.some((e) => e === '*' || (e === '.' ? owner === client : e === client));
}
