/**
 * Host names as istioctl's analyzers resolve them: a short name is a Service of the referring
 * object's namespace (`reviews` -> `reviews.default.svc.cluster.local`), a name with a dot is
 * taken as written; Services are visible where their `networking.istio.io/exportTo` annotation
 * says (everywhere by default), ServiceEntry hosts where spec.exportTo says, wildcards by suffix.
 */
import type { Pod, Service, ServiceEntry } from '../kube/types';
import { qualifyServiceHost, serviceFqdn } from '../refs/service-host';

const EXPORT_ANNOTATION = 'networking.istio.io/exportTo';

export function toFqdn(host: string, namespace: string): string {
  return qualifyServiceHost(host, namespace);
}

export interface RegistryHost {
  host: string;
  namespace: string;
  /** Namespaces that see it; '*' for all. */
  visibleIn: ReadonlySet<string>;
  service?: Service;
  serviceEntry?: ServiceEntry;
}

function visibility(list: readonly string[] | undefined, own: string): Set<string> {
  if (list === undefined || list.length === 0) return new Set(['*']);
  return new Set(list.map((x) => (x === '.' ? own : x.trim())));
}

export function buildRegistry(
  services: readonly Service[],
  serviceEntries: readonly ServiceEntry[],
): RegistryHost[] {
  const out: RegistryHost[] = [];
  for (const s of services) {
    const ns = s.metadata.namespace ?? 'default';
    const anno = s.metadata.annotations?.[EXPORT_ANNOTATION];
    out.push({
      host: serviceFqdn(s.metadata.name, ns),
      namespace: ns,
      visibleIn: visibility(anno === undefined ? undefined : anno.split(','), ns),
      service: s,
    });
  }
  for (const se of serviceEntries) {
    const ns = se.metadata.namespace ?? 'default';
    for (const h of se.spec.hosts ?? []) {
      out.push({
        host: toFqdn(h, ns),
        namespace: ns,
        visibleIn: visibility(se.spec.exportTo, ns),
        serviceEntry: se,
      });
    }
  }
  return out;
}

function wildcardMatch(pattern: string, host: string): boolean {
  if (pattern === '*') return true;
  if (!pattern.startsWith('*')) return false;
  return host.endsWith(pattern.slice(1));
}

/**
 * A registry indexed once per report, so that a lookup does not scan every host: its entries
 * by host name and its wildcard hosts, each list in the registry's order (the first match of a
 * scan is the first of its list).
 */
export interface HostIndex {
  entries: readonly RegistryHost[];
  byHost: ReadonlyMap<string, readonly RegistryHost[]>;
  /** The entries whose host starts with `*`: the only ones that match by suffix. */
  wildcards: readonly RegistryHost[];
}

export function indexHosts(registry: readonly RegistryHost[] | HostIndex): HostIndex {
  if ('byHost' in registry) return registry;
  const byHost = new Map<string, RegistryHost[]>();
  for (const r of registry) {
    const l = byHost.get(r.host);
    if (l === undefined) byHost.set(r.host, [r]);
    else l.push(r);
  }
  return { entries: registry, byHost, wildcards: registry.filter((r) => r.host.startsWith('*')) };
}

/**
 * The registry entry a reference from `fromNamespace` reaches: exact host first, then a
 * wildcard ServiceEntry host covering it, then (for a wildcard reference) any host it covers.
 */
export function lookupHost(
  registry: readonly RegistryHost[] | HostIndex,
  host: string,
  fromNamespace: string,
): RegistryHost | undefined {
  const index = indexHosts(registry);
  const fqdn = toFqdn(host, fromNamespace);
  const sees = (r: RegistryHost) => r.visibleIn.has('*') || r.visibleIn.has(fromNamespace);
  return (
    index.byHost.get(fqdn)?.find(sees) ??
    index.wildcards.find((r) => sees(r) && wildcardMatch(r.host, fqdn)) ??
    (fqdn.startsWith('*')
      ? index.entries.find((r) => sees(r) && wildcardMatch(fqdn, r.host))
      : undefined)
  );
}

/** Every label of a map matches (an empty or missing map selects nothing). */
export function selectsLabels(
  selector: Readonly<Record<string, string>> | undefined,
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  if (selector === undefined || Object.keys(selector).length === 0) return false;
  const l = labels ?? {};
  return Object.entries(selector).every(([k, v]) => k in l && l[k] === v);
}

/** The pods behind a registry host: a Service's selected pods, a ServiceEntry's workloadSelector. */
export function podsOf<P extends Pick<Pod, 'metadata'>>(
  entry: RegistryHost,
  pods: readonly P[],
): P[] | null {
  const sel =
    entry.service?.spec.selector ??
    (entry.serviceEntry?.spec as { workloadSelector?: { labels?: Record<string, string> } })
      ?.workloadSelector?.labels;
  if (sel === undefined || Object.keys(sel).length === 0) return null;
  return pods.filter(
    (p) =>
      (p.metadata.namespace ?? 'default') === entry.namespace &&
      selectsLabels(sel, p.metadata.labels),
  );
}

/**
 * The registry entry a VirtualService destination reaches, as istioctl's DestinationHostAnalyzer
 * finds it: an exact host visible everywhere, else one visible in a namespace the VirtualService
 * is exported to (its own when it has no exportTo), else a wildcard host visible everywhere or in
 * the VirtualService's namespace whose suffix covers it.
 */
export function destinationHost(
  registry: readonly RegistryHost[] | HostIndex,
  host: string,
  fromNamespace: string,
  exportTo: readonly string[] | undefined,
): RegistryHost | undefined {
  const index = indexHosts(registry);
  const fqdn = toFqdn(host, fromNamespace);
  const exact = index.byHost.get(fqdn) ?? [];
  const scopes = (exportTo !== undefined && exportTo.length > 0 ? exportTo : ['.']).map((e) =>
    e === '.' ? fromNamespace : e,
  );
  const bare = host.startsWith('*') ? host.slice(1) : host;
  return (
    exact.find((r) => r.visibleIn.has('*')) ??
    exact.find((r) => scopes.some((sc) => r.visibleIn.has(sc))) ??
    index.wildcards.find(
      (r) =>
        (r.visibleIn.has('*') || r.visibleIn.has(fromNamespace)) && bare.endsWith(r.host.slice(1)),
    )
  );
}

/** The port numbers a registry host declares (a Service's ports, a ServiceEntry's). */
export function registryPorts(entry: RegistryHost): number[] {
  if (entry.service !== undefined) return (entry.service.spec.ports ?? []).map((p) => p.port);
  return (entry.serviceEntry?.spec.ports ?? []).map((p) => p.number);
}
