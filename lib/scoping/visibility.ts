/**
 * Which Sidecar resource scopes a pod's proxy, and which services/ports that proxy therefore
 * receives configuration for. Pure: callers pass the objects in.
 */
import type { Pod, Service, ServiceEntry, Sidecar, VirtualService } from '../kube/types';
import {
  egressSelects,
  isExportedTo,
  parseEgressHosts,
  serviceExportTo,
  type EgressHost,
  type HostError,
} from './hosts';
import {
  listenerImportsVs,
  prepareVirtualService,
  virtualServiceDestinations,
  type MeshVirtualService,
} from './virtualservices';
import { objectKey, type ObjectRef } from '../refs/object-ref';
import { DEFAULT_CLUSTER_DOMAIN, serviceFqdn } from '../refs/service-host';

export const DEFAULT_ROOT_NAMESPACE = 'istio-system';

export type SidecarSource = 'workload' | 'namespace' | 'root' | 'none';

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
  /** VirtualServices the egress listeners import (bound to `mesh`, exported here). */
  virtualServices: ObjectRef[];
  /**
   * Hostnames visible only because an imported VirtualService routes to them (no egress host
   * selects them), with the VirtualServices that do.
   */
  viaVirtualService: Map<string, ObjectRef[]>;
}

export interface VisibilityOptions {
  /** Gateways (istio-proxy run as `router`) ignore Sidecars and see every exported service. */
  gateway?: boolean;
  domain?: string;
  /** VirtualServices whose destinations the imported listeners add. */
  virtualServices?: readonly VirtualService[];
}

/** Every service host in the registry: Kubernetes Services and each ServiceEntry host. */
export function registryServices(
  services: readonly Service[],
  serviceEntries: readonly ServiceEntry[],
  domain = DEFAULT_CLUSTER_DOMAIN,
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
  /** Set when services must match the listener port (not for HTTP_PROXY listeners, as istiod). */
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
    const number = listener.port?.number;
    const proxy = (listener.port?.protocol ?? '').toUpperCase() === 'HTTP_PROXY';
    return { hosts: parsed.hosts, port: number && !proxy ? number : undefined };
  });
  return { rules, errors };
}

export type RegistryEntry = { entry: VisibleService; exportTo: string[] | undefined };

export interface ScopeVirtualServices {
  /** Mesh VirtualServices, hosts resolved (prepareVirtualService). */
  virtualServices: readonly MeshVirtualService[];
  /** Registry entries by hostname (built from the registry when absent). */
  hosts?: ReadonlyMap<string, readonly RegistryEntry[]>;
  domain?: string;
}

/** Keeps one service per hostname as istiod's appendSidecarServices does. */
function serviceSet() {
  const byHost = new Map<string, VisibleService>();
  return {
    byHost,
    /** Adds `svc` with `ports`; true when the proxy sees something it did not before. */
    add(svc: VisibleService, ports: VisiblePort[]): boolean {
      if (ports.length === 0) return false;
      const have = byHost.get(svc.hostname);
      if (!have) {
        byHost.set(svc.hostname, { ...svc, ports });
        return true;
      }
      if (have.kind === 'Service' && svc.kind !== 'Service') return false;
      if (have.kind !== 'Service' && svc.kind === 'Service') {
        // a Kubernetes Service takes the hostname over from a ServiceEntry
        byHost.set(svc.hostname, { ...svc, ports });
        return true;
      }
      if (have.namespace !== svc.namespace) return false;
      const seen = new Set(have.ports.map((p) => p.port));
      const extra = ports.filter((p) => !seen.has(p.port));
      if (extra.length === 0) return false;
      byHost.set(svc.hostname, { ...have, ports: [...have.ports, ...extra] });
      return true;
    },
  };
}

function indexByHost(registry: readonly RegistryEntry[]): Map<string, RegistryEntry[]> {
  const out = new Map<string, RegistryEntry[]>();
  for (const r of registry) {
    const list = out.get(r.entry.hostname);
    if (list) list.push(r);
    else out.set(r.entry.hostname, [r]);
  }
  return out;
}

/**
 * The registry entry istiod picks for a VirtualService destination host: the one in the proxy's
 * namespace, else the first namespace (by name) that exports it to the proxy's namespace.
 */
function destinationEntry(
  candidates: readonly RegistryEntry[],
  configNs: string,
): VisibleService | undefined {
  const own = candidates.find((c) => c.entry.namespace === configNs);
  if (own) return own.entry;
  let best: VisibleService | undefined;
  for (const c of candidates) {
    if (!isExportedTo(c.exportTo, c.entry.namespace, configNs)) continue;
    if (!best || c.entry.namespace < best.namespace) best = c.entry;
  }
  return best;
}

/**
 * Visibility for a proxy in `podNs` under an already chosen Sidecar, over a prebuilt registry:
 * the per-scope building block (every proxy of a namespace under the same Sidecar sees the same).
 * Per egress listener, as istiod: the services its hosts select (one namespace per hostname, the
 * proxy's own first; a listener with a port keeps only that port), then the destinations of the
 * VirtualServices it imports (limited to the destination ports, or the listener's port).
 */
export function visibleInScope(
  podNs: string,
  selection: SidecarSelection,
  registry: readonly RegistryEntry[],
  vs?: ScopeVirtualServices,
): Visibility {
  const { rules, errors } = egressRules(selection.sidecar);
  // A root-namespace default is applied as if it lived in the pod's namespace (`.` = pod's ns).
  const sidecarNs =
    selection.source === 'root' ? podNs : (selection.sidecar?.metadata.namespace ?? podNs);
  const exported = registry.filter((r) => isExportedTo(r.exportTo, r.entry.namespace, podNs));
  const set = serviceSet();
  const explicit = new Set<string>();
  const imported = new Map<string, ObjectRef>();
  const via = new Map<string, ObjectRef[]>();
  const virtualServices = vs?.virtualServices ?? [];
  const hosts = virtualServices.length > 0 ? (vs?.hosts ?? indexByHost(registry)) : undefined;
  for (const rule of rules) {
    const portsOf = (svc: VisibleService) =>
      rule.port === undefined ? svc.ports : svc.ports.filter((p) => p.port === rule.port);
    const picked = new Map<string, VisibleService>();
    for (const { entry } of exported) {
      if (!egressSelects(rule.hosts, sidecarNs, entry.namespace, entry.hostname)) continue;
      if (portsOf(entry).length === 0) continue;
      const prev = picked.get(entry.hostname);
      if (
        !prev ||
        (entry.namespace === podNs && prev.namespace !== podNs) ||
        (prev.kind !== 'Service' &&
          entry.kind === 'Service' &&
          (entry.namespace === podNs || prev.namespace !== podNs))
      )
        picked.set(entry.hostname, entry);
    }
    for (const svc of picked.values()) {
      if (set.add(svc, portsOf(svc))) explicit.add(svc.hostname);
    }
    for (const v of virtualServices) {
      if (!listenerImportsVs(rule.hosts, sidecarNs, v)) continue;
      imported.set(objectKey(v.ref.namespace, v.ref.name), v.ref);
      for (const [host, wanted] of virtualServiceDestinations(v, podNs, vs?.domain)) {
        const svc = destinationEntry(hosts?.get(host) ?? [], podNs);
        if (!svc) continue;
        const ports =
          rule.port !== undefined
            ? portsOf(svc)
            : wanted.size === 0 || wanted.has(0)
              ? svc.ports
              : svc.ports.filter((p) => wanted.has(p.port));
        const added = set.add(svc, ports);
        if ((added || via.has(host)) && ports.length > 0 && !explicit.has(host))
          via.set(host, [...(via.get(host) ?? []), v.ref]);
      }
    }
  }
  for (const [host, refs] of via) {
    if (explicit.has(host)) via.delete(host);
    else via.set(host, dedupeRefs(refs));
  }
  return {
    selection,
    services: [...set.byHost.values()],
    errors,
    virtualServices: [...imported.values()],
    viaVirtualService: via,
  };
}

function dedupeRefs(refs: readonly ObjectRef[]): ObjectRef[] {
  const seen = new Map<string, ObjectRef>();
  for (const r of refs) seen.set(objectKey(r.namespace, r.name), r);
  return [...seen.values()];
}

/**
 * The services and ports a pod's proxy gets config for: exported to the pod's namespace and,
 * when a Sidecar applies, selected by one of its egress listeners (a listener with a port keeps
 * only that port), plus the destinations of the VirtualServices those listeners import.
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
  const domain = options.domain;
  return visibleInScope(podNs, selection, registryServices(services, serviceEntries, domain), {
    virtualServices: (options.virtualServices ?? []).map((v) => prepareVirtualService(v, domain)),
    domain,
  });
}
