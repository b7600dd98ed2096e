/**
 * VirtualServices as istiod's Sidecar scoping reads them (pilot/pkg/model/sidecar.go and
 * virtualservice.go): an egress listener imports the mesh-bound VirtualServices exported to the
 * proxy's namespace whose hosts overlap one of its egress hosts for the VirtualService's namespace
 * (or `*`), and every service those VirtualServices route to (route, mirror, mirrors; tcp and tls
 * routes) becomes visible to the proxy too, limited to the destination ports, even when the
 * egress hosts do not name it (collectImportedServices).
 */
import type { VirtualService } from '../kube/types';
import { isExportedTo, resolveShortHost, takenUnlessExcluded, type EgressHost } from './hosts';
import type { ObjectRef } from '../refs/object-ref';
import { DEFAULT_CLUSTER_DOMAIN } from '../refs/service-host';

/** The parts of a VirtualService spec the scoping reads (tcp, tls and mirrors included). */
interface PortSelector {
  number?: number;
}
interface Destination {
  host?: string;
  port?: PortSelector;
}
interface RouteBlock {
  match?: { sourceNamespace?: string }[];
  route?: { destination?: Destination }[];
  mirror?: Destination;
  mirrors?: { destination?: Destination }[];
}
interface LooseSpec {
  hosts?: unknown;
  gateways?: unknown;
  exportTo?: unknown;
  http?: RouteBlock[];
  tcp?: RouteBlock[];
  tls?: RouteBlock[];
}

/** A VirtualService with its hosts resolved, ready to be matched against egress listeners. */
export interface MeshVirtualService {
  ref: ObjectRef;
  /** spec.hosts, short names expanded against the VirtualService's namespace. */
  hosts: string[];
  exportTo: string[] | undefined;
  /** Bound to sidecars: no spec.gateways, or `mesh` among them. */
  mesh: boolean;
  spec: LooseSpec;
}

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

export function prepareVirtualService(
  vs: VirtualService,
  domain = DEFAULT_CLUSTER_DOMAIN,
): MeshVirtualService {
  const ns = vs.metadata.namespace ?? 'default';
  const spec = (vs.spec ?? {}) as LooseSpec;
  const gateways = strings(spec.gateways);
  const exportTo = strings(spec.exportTo);
  return {
    ref: { namespace: ns, name: vs.metadata.name },
    hosts: strings(spec.hosts).map((h) => resolveShortHost(h, ns, domain)),
    exportTo: exportTo.length > 0 ? exportTo : undefined,
    mesh: gateways.length === 0 || gateways.includes('mesh'),
    spec,
  };
}

/**
 * Destination host -> ports routed to (0: a destination without a port, i.e. every port), as
 * istiod's virtualServiceDestinationsFilteredBySourceNamespace: an http route whose matches all
 * name another sourceNamespace does not count for a proxy in `configNamespace`.
 */
export function virtualServiceDestinations(
  vs: MeshVirtualService,
  configNamespace: string,
  domain = DEFAULT_CLUSTER_DOMAIN,
): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  const add = (d: Destination | undefined) => {
    if (!d || typeof d.host !== 'string' || d.host === '') return;
    const host = resolveShortHost(d.host, vs.ref.namespace, domain);
    const set = out.get(host) ?? new Set<number>();
    set.add(typeof d.port?.number === 'number' ? d.port.number : 0);
    out.set(host, set);
  };
  for (const h of Array.isArray(vs.spec.http) ? vs.spec.http : []) {
    const sources = (h.match ?? []).map((m) => m?.sourceNamespace ?? '').filter(Boolean);
    if (sources.length > 0 && !sources.includes(configNamespace)) continue;
    for (const r of h.route ?? []) add(r?.destination);
    add(h.mirror);
    for (const m of h.mirrors ?? []) add(m?.destination);
  }
  for (const block of [vs.spec.tcp, vs.spec.tls]) {
    for (const t of Array.isArray(block) ? block : [])
      for (const r of t.route ?? []) add(r?.destination);
  }
  return out;
}

/** Istio's host.Name.SubsetOf: every name `h` covers is also covered by `o`. */
export function hostSubsetOf(h: string, o: string): boolean {
  const hw = h.startsWith('*');
  const ow = o.startsWith('*');
  if (hw) return ow && h.slice(1).endsWith(o.slice(1));
  if (ow) return h.endsWith(o.slice(1));
  return h === o;
}

/** Istio's host.Name.Matches (either covers the other): how a VirtualService host is imported. */
export function hostsOverlap(a: string, b: string): boolean {
  return hostSubsetOf(a, b) || hostSubsetOf(b, a);
}

/** Does egress host `h` of a listener applied in `configNamespace` match host `vh` of `vs`? */
function egressHostMatchesVsHost(
  h: EgressHost,
  configNamespace: string,
  vs: MeshVirtualService,
  vh: string,
): boolean {
  const ns = vs.ref.namespace;
  switch (h.namespace.kind) {
    case 'none':
      return false;
    case 'own':
      if (ns !== configNamespace) return false;
      break;
    case 'named':
      if (ns !== h.namespace.name) return false;
      break;
    case 'any':
      break;
  }
  return vh === h.dns || hostsOverlap(vh, h.dns);
}

/** Does egress host `h` of a listener applied in `configNamespace` take VirtualService `vs`? */
export function egressHostImportsVs(
  h: EgressHost,
  configNamespace: string,
  vs: MeshVirtualService,
): boolean {
  return !h.exclude && vs.hosts.some((vh) => egressHostMatchesVsHost(h, configNamespace, vs, vh));
}

/**
 * Is `vs` imported by a listener with egress hosts `hosts` for proxies in `configNamespace`?
 * Bound to `mesh`, exported to the namespace, with hosts (delegates have none), and one host
 * overlapping an egress host for its namespace.
 */
export function listenerImportsVs(
  hosts: readonly EgressHost[],
  configNamespace: string,
  vs: MeshVirtualService,
): boolean {
  if (!vs.mesh || vs.hosts.length === 0) return false;
  if (!isExportedTo(vs.exportTo, vs.ref.namespace, configNamespace)) return false;
  // a host excluded on one entry keeps the VirtualService while another of its hosts qualifies
  // (istio/istio#60581): it goes only when every host an egress host takes is excluded
  return vs.hosts.some((vh) =>
    takenUnlessExcluded(hosts, (h) => egressHostMatchesVsHost(h, configNamespace, vs, vh)),
  );
}
