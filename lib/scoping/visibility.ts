/**
 * Which Sidecar resource scopes a pod's proxy, and which services/ports that proxy therefore
 * receives configuration for. Pure: callers pass the objects in.
 */
import type { Pod, Service, ServiceEntry, Sidecar } from '../kube/types';
import {
  DEFAULT_DOMAIN_SUFFIX,
  egressHostMatches,
  isExportedTo,
  parseEgressHosts,
  serviceExportTo,
  serviceFqdn,
  type EgressHost,
  type HostError,
} from './hosts';

export const DEFAULT_ROOT_NAMESPACE = 'istio-system';

export type SidecarSource = 'workload' | 'namespace' | 'root' | 'none';

export interface ObjectRef {
  namespace: string;
  name: string;
}

export interface SidecarSelection {
  sidecar?: Sidecar;
  source: SidecarSource;
  /** Other Sidecars that would also have applied at the chosen level (the oldest one wins). */
  conflicts: ObjectRef[];
}

/** Every selector label present with the same value (an empty selector selects nothing). */
export function labelsMatch(
  selector: Record<string, string> | undefined,
  labels: Record<string, string> | undefined,
): boolean {
  if (!selector) return false;
  const keys = Object.keys(selector);
  if (keys.length === 0) return false;
  return keys.every((k) => labels?.[k] === selector[k]);
}

function hasSelector(s: Sidecar): boolean {
  return Object.keys(s.spec?.workloadSelector?.labels ?? {}).length > 0;
}

function age(s: Sidecar): number {
  const t = Date.parse(s.metadata.creationTimestamp ?? '');
  return Number.isNaN(t) ? Number.POSITIVE_INFINITY : t;
}

/** Oldest first (creationTimestamp), then by name, like istiod's conflict resolution. */
function oldestFirst(a: Sidecar, b: Sidecar): number {
  return age(a) - age(b) || a.metadata.name.localeCompare(b.metadata.name);
}

function pick(candidates: Sidecar[], source: SidecarSource): SidecarSelection | null {
  if (candidates.length === 0) return null;
  const sorted = [...candidates].sort(oldestFirst);
  const [winner, ...rest] = sorted;
  return {
    sidecar: winner,
    source,
    conflicts: rest.map((s) => ({ namespace: s.metadata.namespace ?? '', name: s.metadata.name })),
  };
}

/**
 * The Sidecar that applies to `pod`: a matching workloadSelector one in the pod's namespace,
 * else the selector-less namespace default, else the selector-less one in the root namespace.
 */
export function selectSidecar(
  pod: Pod,
  sidecars: readonly Sidecar[],
  rootNamespace = DEFAULT_ROOT_NAMESPACE,
): SidecarSelection {
  const ns = pod.metadata.namespace ?? 'default';
  const inNs = sidecars.filter((s) => (s.metadata.namespace ?? 'default') === ns);
  const byWorkload = inNs.filter(
    (s) => hasSelector(s) && labelsMatch(s.spec.workloadSelector?.labels, pod.metadata.labels),
  );
  const nsDefault = inNs.filter((s) => !hasSelector(s));
  const rootDefault = sidecars.filter(
    (s) => (s.metadata.namespace ?? 'default') === rootNamespace && !hasSelector(s),
  );
  return (
    pick(byWorkload, 'workload') ??
    pick(nsDefault, 'namespace') ??
    pick(rootDefault, 'root') ?? { source: 'none', conflicts: [] }
  );
}

export interface VisiblePort {
  port: number;
  name?: string;
  protocol?: string;
  appProtocol?: string;
  targetPort?: number | string;
}

export interface VisibleService {
  kind: 'Service' | 'ServiceEntry';
  namespace: string;
  /** Object name (the Service, or the ServiceEntry holding this host). */
  name: string;
  hostname: string;
  ports: VisiblePort[];
  /** Services: clusterIP ("None" when headless); ServiceEntries: first address. */
  address?: string;
  /** Services: spec.type; ServiceEntries: undefined. */
  serviceType?: string;
  /** ServiceEntries: spec.resolution (NONE, STATIC, DNS, DNS_ROUND_ROBIN). */
  resolution?: string;
  selector?: Record<string, string>;
}

export interface Visibility {
  selection: SidecarSelection;
  services: VisibleService[];
  /** Invalid egress hosts of the applied Sidecar (they select nothing). */
  errors: HostError[];
}

export interface VisibilityOptions {
  /** Gateways (istio-proxy run as `router`) ignore Sidecars and see every exported service. */
  gateway?: boolean;
  domain?: string;
}

/** Every service host in the registry: Kubernetes Services and each ServiceEntry host. */
export function registryServices(
  services: readonly Service[],
  serviceEntries: readonly ServiceEntry[],
  domain = DEFAULT_DOMAIN_SUFFIX,
): RegistryEntry[] {
  const out: RegistryEntry[] = [];
  for (const s of services) {
    const ns = s.metadata.namespace ?? 'default';
    out.push({
      entry: {
        kind: 'Service',
        namespace: ns,
        name: s.metadata.name,
        hostname: serviceFqdn(s.metadata.name, ns, domain),
        ports: (s.spec?.ports ?? []).map((p) => ({
          port: p.port,
          name: p.name,
          protocol: p.protocol,
          appProtocol: p.appProtocol,
          targetPort: p.targetPort,
        })),
        address: s.spec?.clusterIP,
        serviceType: s.spec?.type,
        selector: s.spec?.selector,
      },
      exportTo: serviceExportTo(s.metadata.annotations),
    });
  }
  for (const se of serviceEntries) {
    const ns = se.metadata.namespace ?? 'default';
    for (const host of se.spec?.hosts ?? []) {
      out.push({
        entry: {
          kind: 'ServiceEntry',
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
          resolution: se.spec.resolution ?? 'NONE',
        },
        exportTo: se.spec.exportTo,
      });
    }
  }
  return out;
}

export interface EgressRule {
  hosts: EgressHost[];
  port?: number;
}

export function egressRules(sidecar: Sidecar | undefined): {
  rules: EgressRule[];
  errors: HostError[];
} {
  const all: EgressHost = { raw: '*/*', namespace: { kind: 'any' }, dns: '*' };
  const egress = sidecar?.spec?.egress ?? [];
  if (!sidecar || egress.length === 0) return { rules: [{ hosts: [all] }], errors: [] };
  const errors: HostError[] = [];
  const rules = egress.map((listener) => {
    const parsed = parseEgressHosts(Array.isArray(listener.hosts) ? listener.hosts : []);
    errors.push(...parsed.errors);
    return { hosts: parsed.hosts, port: listener.port?.number };
  });
  return { rules, errors };
}

export type RegistryEntry = { entry: VisibleService; exportTo: string[] | undefined };

/**
 * Visibility for a proxy in `podNs` under an already chosen Sidecar, over a prebuilt registry:
 * the per-scope building block (every proxy of a namespace under the same Sidecar sees the same).
 */
export function visibleInScope(
  podNs: string,
  selection: SidecarSelection,
  registry: readonly RegistryEntry[],
): Visibility {
  const { rules, errors } = egressRules(selection.sidecar);
  // A root-namespace default is applied as if it lived in the pod's namespace (`.` = pod's ns).
  const sidecarNs =
    selection.source === 'root' ? podNs : (selection.sidecar?.metadata.namespace ?? podNs);
  const out: VisibleService[] = [];
  for (const { entry, exportTo } of registry) {
    if (!isExportedTo(exportTo, entry.namespace, podNs)) continue;
    const ports = entry.ports.filter((p) =>
      rules.some(
        (r) =>
          (r.port === undefined || r.port === p.port) &&
          r.hosts.some((h) => egressHostMatches(h, sidecarNs, entry.namespace, entry.hostname)),
      ),
    );
    if (ports.length > 0) out.push({ ...entry, ports });
  }
  return { selection, services: out, errors };
}

/**
 * The services and ports a pod's proxy gets config for: exported to the pod's namespace and,
 * when a Sidecar applies, selected by one of its egress listeners (a listener with a port keeps
 * only that port).
 */
export function visibleServices(
  pod: Pod,
  services: readonly Service[],
  serviceEntries: readonly ServiceEntry[],
  sidecars: readonly Sidecar[],
  rootNamespace = DEFAULT_ROOT_NAMESPACE,
  options: VisibilityOptions = {},
): Visibility {
  const podNs = pod.metadata.namespace ?? 'default';
  const selection: SidecarSelection = options.gateway
    ? { source: 'none', conflicts: [] }
    : selectSidecar(pod, sidecars, rootNamespace);
  return visibleInScope(
    podNs,
    selection,
    registryServices(services, serviceEntries, options.domain),
  );
}
