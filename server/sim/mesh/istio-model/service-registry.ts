/**
 * The simulated istiod's services: its model.Service, converted from Kubernetes Services the way
 * istio/istio pilot/pkg/serviceregistry/kube/conversion.go ConvertService does and from
 * ServiceEntries the way serviceregistry/serviceentry/conversion.go does (one service per host).
 * Which namespaces may see them is push-context.ts's work; this file only converts.
 */
import type { Service, ServiceEntry } from '../../../../lib/kube/types';
import { kubeServiceHost } from './hosts';

/** model.Resolution. */
export type Resolution =
  'ClientSideLB' | 'Passthrough' | 'DNSLB' | 'DNSRoundRobinLB' | 'DynamicDNS' | 'Alias';

/** provider.ID of the registry a service comes from. */
export type ServiceRegistry = 'Kubernetes' | 'External';

export interface SimPort {
  port: number;
  name?: string;
  /** Kubernetes protocol (TCP, UDP, SCTP) or the ServiceEntry port protocol. */
  protocol?: string;
  appProtocol?: string;
  targetPort?: number | string;
}

export interface SimService {
  /** Kubernetes for a Service, External for a ServiceEntry host. */
  registry: ServiceRegistry;
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
  /** Attributes.Labels: the labels of the Service or ServiceEntry. */
  labels: Readonly<Record<string, string>>;
  /** Attributes.LabelSelectors (Services). */
  selector?: Record<string, string>;
  /** ServiceEntries: the labels of each endpoint (one unlabelled endpoint when none are listed). */
  endpointLabels?: Record<string, string>[];
  /** Attributes.ExportTo as written; empty: the mesh default applies. */
  exportTo: ReadonlySet<string>;
  /** creationTimestamp (ms; Infinity when unknown): istiod orders its services by it. */
  createdAt: number;
  /** Position in the registry as listed (Services, then each ServiceEntry host). */
  seq: number;
}

const nsOf = (o: { metadata: { namespace?: string } }) => o.metadata.namespace ?? 'default';

function createdAt(o: { metadata: { creationTimestamp?: string } }): number {
  const t = Date.parse(o.metadata.creationTimestamp ?? '');
  return Number.isNaN(t) ? Number.POSITIVE_INFINITY : t;
}

/** The `networking.istio.io/exportTo` annotation, comma separated. */
function annotationExportTo(s: Service): Set<string> {
  const raw = s.metadata.annotations?.['networking.istio.io/exportTo'];
  const out = new Set<string>();
  if (!raw) return out;
  for (const part of raw.split(',')) {
    const ns = part.trim();
    if (ns !== '') out.add(ns);
  }
  return out;
}

/** ConvertService. */
export function convertService(s: Service, seq: number): SimService {
  const ns = nsOf(s);
  const spec = s.spec as Service['spec'] & { externalName?: string };
  const externalName = spec?.type === 'ExternalName' ? spec.externalName || undefined : undefined;
  // ExternalName is an alias (ENABLE_EXTERNAL_NAME_ALIAS); a headless Service passes through,
  // whatever its type
  let resolution: Resolution = externalName !== undefined ? 'Alias' : 'ClientSideLB';
  if (spec?.clusterIP === 'None') resolution = 'Passthrough';
  return {
    registry: 'Kubernetes',
    namespace: ns,
    name: s.metadata.name,
    hostname: kubeServiceHost(s.metadata.name, ns),
    ports: (spec?.ports ?? []).map((p) => ({
      port: p.port,
      name: p.name,
      protocol: p.protocol,
      appProtocol: p.appProtocol,
      targetPort: p.targetPort,
    })),
    address: spec?.clusterIP,
    serviceType: spec?.type,
    externalName,
    resolution,
    meshExternal: externalName !== undefined,
    labels: s.metadata.labels ?? {},
    selector: spec?.selector,
    exportTo: annotationExportTo(s),
    createdAt: createdAt(s),
    seq,
  };
}

/** networking.ServiceEntry_Resolution to model.Resolution (NONE when unset). */
function entryResolution(raw: string | undefined): Resolution {
  switch ((raw ?? 'NONE').toUpperCase()) {
    case 'STATIC':
      return 'ClientSideLB';
    case 'DNS':
      return 'DNSLB';
    case 'DNS_ROUND_ROBIN':
      return 'DNSRoundRobinLB';
    case 'DYNAMIC_DNS':
      return 'DynamicDNS';
    default:
      return 'Passthrough';
  }
}

function entryEndpointLabels(se: ServiceEntry): Record<string, string>[] {
  const raw: unknown = (se.spec as { endpoints?: unknown }).endpoints;
  if (!Array.isArray(raw) || raw.length === 0) return [{}];
  return raw.map((e: unknown) => {
    const labels = e && typeof e === 'object' ? (e as { labels?: unknown }).labels : undefined;
    return labels && typeof labels === 'object' ? (labels as Record<string, string>) : {};
  });
}

/** The ServiceEntry conversion: one service per host, the first address as its VIP. */
export function convertServiceEntry(se: ServiceEntry, firstSeq: number): SimService[] {
  const ns = nsOf(se);
  const spec = se.spec;
  const ports: SimPort[] = (spec?.ports ?? []).map((p) => ({
    port: p.number,
    name: p.name,
    protocol: p.protocol,
    targetPort: p.targetPort,
  }));
  const location = (spec?.location ?? 'MESH_EXTERNAL').toUpperCase();
  return (spec?.hosts ?? []).map((host, i) => ({
    registry: 'External' as const,
    namespace: ns,
    name: se.metadata.name,
    hostname: host.toLowerCase(),
    ports: ports.map((p) => ({ ...p })),
    address: spec.addresses?.[0],
    resolution: entryResolution(spec.resolution),
    meshExternal: location !== 'MESH_INTERNAL',
    labels: se.metadata.labels ?? {},
    endpointLabels: entryEndpointLabels(se),
    exportTo: new Set(spec.exportTo ?? []),
    createdAt: createdAt(se),
    seq: firstSeq + i,
  }));
}

/** env.Services(): every Kubernetes Service, then every ServiceEntry host. */
export function registryServices(
  services: readonly Service[],
  serviceEntries: readonly ServiceEntry[],
): SimService[] {
  const out = services.map((s, i) => convertService(s, i));
  for (const se of serviceEntries) out.push(...convertServiceEntry(se, out.length));
  return out;
}
