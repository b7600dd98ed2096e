/**
 * The part of istiod's PushContext the simulated proxies' scoping is computed from, written from
 * istio/istio pilot/pkg/model/push_context.go:
 *
 * - the ServiceIndex (initServiceRegistry): services ordered by creation (then hostname), filed as
 *   public (exportTo `*`, or unset under a `*` mesh default), private to their namespace (`.`, their
 *   own namespace, or unset under a `.` default) or exported to the namespaces named; `~` (without
 *   `*`) files a service nowhere. HostnameAndNamespace keeps one service per host and namespace:
 *   the oldest, unless a Kubernetes Service comes after a ServiceEntry for the same host.
 * - servicesExportedToNamespace: the namespace's private services, those exported to it, then the
 *   public ones; IsServiceVisible, which reads exportTo afresh (and there `~` beside a namespace
 *   name does not hide it from that namespace).
 * - the mesh-bound VirtualServices (gateways unset or naming `mesh`), filed the same way by their
 *   exportTo (mesh default defaultVirtualServiceExportTo), hosts resolved in their namespace.
 * - the Sidecar index (initSidecarScopes, getSidecarScope): per namespace, the Sidecars with a
 *   workloadSelector first, then the oldest one without; the first whose selector the workload's
 *   labels hold (a selector-less one holds always) applies; a namespace with none that applies
 *   takes the root namespace's oldest selector-less Sidecar, read as if it lived there.
 */
import type { Service, ServiceEntry, Sidecar, VirtualService } from '../../../../lib/kube/types';
import { resolveShortname } from './hosts';
import { registryServices, type SimService } from './service-registry';
import { labelsSubsetOf } from './service-targets';

const PUBLIC = '*';
const PRIVATE = '.';
const NONE = '~';
const MESH_GATEWAY = 'mesh';

const nsOf = (o: { metadata: { namespace?: string } }) => o.metadata.namespace ?? 'default';

function createdAt(o: { metadata: { creationTimestamp?: string } }): number {
  const t = Date.parse(o.metadata.creationTimestamp ?? '');
  return Number.isNaN(t) ? Number.POSITIVE_INFINITY : t;
}

/** Where an exportTo set files an object of namespace `ns` (an empty set takes `defaults`). */
type Filing = { public: true } | { public: false; namespaces: Set<string> };

function filingOf(
  exportTo: ReadonlySet<string>,
  ns: string,
  defaults: readonly string[],
): Filing | null {
  if (exportTo.size === 0) {
    if (defaults.includes(PRIVATE)) return { public: false, namespaces: new Set([ns]) };
    if (defaults.includes(PUBLIC)) return { public: true };
    return null;
  }
  if (exportTo.has(PUBLIC)) return { public: true };
  if (exportTo.has(NONE)) return null;
  const namespaces = new Set<string>();
  for (const e of exportTo) namespaces.add(e === PRIVATE ? ns : e);
  return { public: false, namespaces };
}

/** Objects filed by visibility: visible to a namespace as its own, exported to it, or public. */
class VisibilityIndex<T> {
  private readonly public_: T[] = [];
  private readonly byNamespace = new Map<string, { own: T[]; exported: T[] }>();

  file(item: T, owner: string, filing: Filing | null): void {
    if (filing === null) return;
    if (filing.public) {
      this.public_.push(item);
      return;
    }
    for (const target of filing.namespaces) {
      let slot = this.byNamespace.get(target);
      if (!slot) this.byNamespace.set(target, (slot = { own: [], exported: [] }));
      (target === owner ? slot.own : slot.exported).push(item);
    }
  }

  /** Private to `ns`, then exported to it, then public (servicesExportedToNamespace's order). */
  visibleTo(ns: string): T[] {
    const slot = this.byNamespace.get(ns);
    return [...(slot?.own ?? []), ...(slot?.exported ?? []), ...this.public_];
  }
}

/** A mesh-bound VirtualService with its hosts resolved. */
export interface PushVirtualService {
  vs: VirtualService;
  namespace: string;
  name: string;
  hosts: string[];
}

export interface ExportToDefaults {
  /** MeshConfig defaultServiceExportTo / defaultVirtualServiceExportTo (unset: `*`). */
  service?: readonly string[];
  virtualService?: readonly string[];
}

export interface PushInput {
  services: readonly Service[];
  serviceEntries: readonly ServiceEntry[];
  virtualServices: readonly VirtualService[];
  sidecars: readonly Sidecar[];
  rootNamespace: string;
  exportToDefaults?: ExportToDefaults;
}

export interface PushContext {
  rootNamespace: string;
  servicesExportedToNamespace(ns: string): SimService[];
  isServiceVisible(svc: SimService, ns: string): boolean;
  /** HostnameAndNamespace[host]: the service of that host in each namespace. */
  servicesByNamespace(hostname: string): ReadonlyMap<string, SimService>;
  /** The mesh-bound VirtualServices visible to `ns`: private, exported, then public. */
  virtualServicesFor(ns: string): PushVirtualService[];
  /** The Sidecar that scopes a workload, and the namespace it is read in; null: none applies. */
  sidecarFor(ns: string, labels: Readonly<Record<string, string>>): Sidecar | null;
}

export function createPushContext(input: PushInput): PushContext {
  const serviceDefaults = input.exportToDefaults?.service ?? [PUBLIC];
  const vsDefaults = input.exportToDefaults?.virtualService ?? [PUBLIC];

  // initServiceRegistry
  const all = registryServices(input.services, input.serviceEntries).sort(
    (a, b) =>
      a.createdAt - b.createdAt ||
      (a.hostname < b.hostname ? -1 : a.hostname > b.hostname ? 1 : 0) ||
      a.seq - b.seq,
  );
  const services = new VisibilityIndex<SimService>();
  const hostnameAndNamespace = new Map<string, Map<string, SimService>>();
  for (const s of all) {
    let byNs = hostnameAndNamespace.get(s.hostname);
    if (!byNs) hostnameAndNamespace.set(s.hostname, (byNs = new Map()));
    const existing = byNs.get(s.namespace);
    if (!existing || (existing.registry !== 'Kubernetes' && s.registry === 'Kubernetes'))
      byNs.set(s.namespace, s);
    services.file(s, s.namespace, filingOf(s.exportTo, s.namespace, serviceDefaults));
  }

  // initVirtualServices, mesh gateway only
  const virtualServices = new VisibilityIndex<PushVirtualService>();
  const vsSorted = [...input.virtualServices].sort(
    (a, b) =>
      createdAt(a) - createdAt(b) ||
      nsOf(a).localeCompare(nsOf(b)) ||
      a.metadata.name.localeCompare(b.metadata.name),
  );
  for (const vs of vsSorted) {
    const gateways = vs.spec?.gateways ?? [];
    if (gateways.length > 0 && !gateways.includes(MESH_GATEWAY)) continue;
    const ns = nsOf(vs);
    const entry: PushVirtualService = {
      vs,
      namespace: ns,
      name: vs.metadata.name,
      hosts: (vs.spec?.hosts ?? []).map((h) => resolveShortname(h, ns)),
    };
    virtualServices.file(entry, ns, filingOf(new Set(vs.spec?.exportTo ?? []), ns, vsDefaults));
  }

  // initSidecarScopes
  const byNamespace = new Map<string, Sidecar[]>();
  const withoutSelectorSeen = new Set<string>();
  const sidecarsSorted = [...input.sidecars].sort(
    (a, b) => createdAt(a) - createdAt(b) || a.metadata.name.localeCompare(b.metadata.name),
  );
  const withSelector = sidecarsSorted.filter((s) => hasSelector(s));
  const withoutSelector = sidecarsSorted.filter((s) => {
    if (hasSelector(s)) return false;
    if (withoutSelectorSeen.has(nsOf(s))) return false;
    withoutSelectorSeen.add(nsOf(s));
    return true;
  });
  for (const s of [...withSelector, ...withoutSelector]) {
    const list = byNamespace.get(nsOf(s)) ?? [];
    list.push(s);
    byNamespace.set(nsOf(s), list);
  }
  const rootConfig = withoutSelector.find((s) => nsOf(s) === input.rootNamespace) ?? null;

  return {
    rootNamespace: input.rootNamespace,
    servicesExportedToNamespace: (ns) => services.visibleTo(ns),
    isServiceVisible(svc, ns) {
      if (svc.exportTo.size === 0) {
        if (serviceDefaults.includes(PRIVATE)) return svc.namespace === ns;
        if (serviceDefaults.includes(PUBLIC)) return true;
      }
      return (
        svc.exportTo.has(PUBLIC) ||
        (svc.exportTo.has(PRIVATE) && svc.namespace === ns) ||
        svc.exportTo.has(ns)
      );
    },
    servicesByNamespace: (hostname) => hostnameAndNamespace.get(hostname) ?? new Map(),
    virtualServicesFor: (ns) => virtualServices.visibleTo(ns),
    sidecarFor(ns, labels) {
      for (const s of byNamespace.get(ns) ?? []) {
        const selector = s.spec?.workloadSelector?.labels;
        if (!hasSelector(s) || labelsSubsetOf(selector, labels)) return s;
      }
      return rootConfig;
    },
  };
}

/** `workloadSelector` set at all: istiod files such a Sidecar with the selecting ones. */
function hasSelector(s: Sidecar): boolean {
  return s.spec?.workloadSelector !== undefined && s.spec.workloadSelector !== null;
}
