/**
 * The simulated istiod's SidecarScope: what one Sidecar (or none) gives the proxies it scopes in
 * one config namespace, written from istio/istio pilot/pkg/model/sidecar.go with unified sidecar
 * scoping (a namespace without Sidecar is read as a Sidecar with one `*` egress listener) and
 * kept apart from lib/scoping on purpose: meshdx predicts with lib/scoping, the simulator plays
 * istiod with this file and ./istio-model/push-context.ts, so a test that applies a Sidecar and
 * compares the two checks something.
 *
 * Per egress listener (convertIstioListenerToWrapper):
 * - hosts `NS/DNS` are filed by namespace (`.` is the config namespace; `~` or any other name
 *   only matches services of that namespace; a host without exactly one `/` is skipped); per
 *   namespace, exact names and all names (hostClassification);
 * - services (selectServices), from those exported to the config namespace: a service is taken by
 *   the hosts filed under its own namespace, else by those under `*`; a listener with a port
 *   (not HTTP_PROXY) keeps only that port and drops services without it; one namespace per
 *   hostname: the first seen, the config namespace's over it, a Kubernetes Service over a
 *   ServiceEntry unless that takes the config namespace's away;
 * - VirtualServices (SelectVirtualServices): the mesh-bound ones visible to the config namespace
 *   with a host the hosts of their namespace, or of `*`, match (both ways for wildcards).
 * The scope's services (collectImportedServices, appendSidecarServices): listener by listener,
 * the selected services, then the destinations of the VirtualServices it imports (routes, mirrors;
 * routes whose matches name other source namespaces skipped): the config namespace's service of
 * that host, else the first namespace by name whose service is visible; only the destination
 * ports (or the listener's). A hostname already present: a Kubernetes Service is never replaced
 * by a ServiceEntry and replaces one; else the ports are merged when both come from the same
 * namespace, registry, resolution, labels, selector and exportTo.
 * Gateways (DefaultSidecarScopeForGateway): every service exported to their namespace.
 */
import type { Sidecar, VirtualService } from '../../../lib/kube/types';
import { hostSubsetOf, resolveShortname } from './istio-model/hosts';
import {
  excluded,
  fileEgressHosts,
  WILDCARD_NAMESPACE,
  type HostClassification,
} from './istio-model/host-classification';
import type { PushContext, PushVirtualService } from './istio-model/push-context';
import type { SimPort, SimService } from './istio-model/service-registry';

export { hostSubsetOf };

export interface SimEgressListener {
  /** The listener's port when services must match it (needsPortMatch). */
  matchPort?: number;
  hostsByNamespace: ReadonlyMap<string, HostClassification>;
  /**
   * Excluded hosts by namespace (`~ns/host`; `~/host` under `*`), Istio 1.31: a host included
   * above is dropped when one of these matches it.
   */
  excludedByNamespace: ReadonlyMap<string, HostClassification>;
  virtualServices: PushVirtualService[];
  services: SimService[];
}

export interface SimSidecarScope {
  /** The Sidecar read, undefined for the implicit default. */
  sidecar?: Sidecar;
  /** The config namespace: the proxies' namespace (also for a root namespace Sidecar). */
  namespace: string;
  egressListeners: SimEgressListener[];
  /** Every service the scope's proxies get clusters for, one per hostname. */
  services: SimService[];
}

type Egress = NonNullable<Sidecar['spec']['egress']>[number];

function needsPortMatch(l: Egress): number | undefined {
  const number = l.port?.number;
  if (!number) return undefined;
  return (l.port?.protocol ?? '').toUpperCase() === 'HTTP_PROXY' ? undefined : number;
}

/** A service trimmed to the listener's port, or null when it has none. */
function serviceMatchingListenerPort(s: SimService, port: number): SimService | null {
  const p = s.ports.find((x) => x.port === port);
  if (!p) return null;
  return s.ports.length === 1 ? s : { ...s, ports: [p] };
}

/** A service trimmed to the ports a VirtualService sends to (0: every port), or null. */
function serviceMatchingVirtualServicePorts(
  s: SimService,
  ports: ReadonlySet<number>,
): SimService | null {
  if (ports.size === 0 || ports.has(0)) return s;
  const found = s.ports.filter((p) => ports.has(p.port));
  if (found.length === s.ports.length) return s;
  return found.length > 0 ? { ...s, ports: found } : null;
}

function matchingService(
  hosts: HostClassification,
  s: SimService,
  matchPort: number | undefined,
): SimService | null {
  if (!hosts.matches(s.hostname)) return null;
  return matchPort === undefined ? s : serviceMatchingListenerPort(s, matchPort);
}

function selectServices(
  exported: readonly SimService[],
  configNamespace: string,
  hostsByNamespace: ReadonlyMap<string, HostClassification>,
  excludedByNamespace: ReadonlyMap<string, HostClassification>,
  matchPort: number | undefined,
): SimService[] {
  const imported: SimService[] = [];
  const wildcard = hostsByNamespace.get(WILDCARD_NAMESPACE);
  for (const s of exported) {
    if (excluded(excludedByNamespace, s.namespace, s.hostname)) continue;
    const own = hostsByNamespace.get(s.namespace);
    if (own) {
      const svc = matchingService(own, s, matchPort);
      if (svc) {
        imported.push(svc);
        continue;
      }
    }
    if (wildcard) {
      const svc = matchingService(wildcard, s, matchPort);
      if (svc) imported.push(svc);
    }
  }
  const chosen = new Map<string, { namespace: string; kubernetes: boolean }>();
  for (const s of imported) {
    const next = { namespace: s.namespace, kubernetes: s.registry === 'Kubernetes' };
    const ex = chosen.get(s.hostname);
    if (
      !ex ||
      s.namespace === configNamespace ||
      (!ex.kubernetes &&
        next.kubernetes &&
        (next.namespace === configNamespace || ex.namespace !== configNamespace))
    )
      chosen.set(s.hostname, next);
  }
  return imported.filter((s) => chosen.get(s.hostname)?.namespace === s.namespace);
}

function selectVirtualServices(
  visible: readonly PushVirtualService[],
  hostsByNamespace: ReadonlyMap<string, HostClassification>,
  excludedByNamespace: ReadonlyMap<string, HostClassification>,
): PushVirtualService[] {
  const out: PushVirtualService[] = [];
  const taken = new Set<PushVirtualService>();
  const consider = (vs: PushVirtualService, hosts: HostClassification | undefined) => {
    if (!hosts || taken.has(vs)) return;
    // a VirtualService stays while one of its hosts is taken and not excluded
    if (
      vs.hosts.some(
        (h) => hosts.vsMatches(h) && !excluded(excludedByNamespace, vs.namespace, h, true),
      )
    ) {
      out.push(vs);
      taken.add(vs);
    }
  };
  for (const vs of visible) {
    consider(vs, hostsByNamespace.get(vs.namespace));
    consider(vs, hostsByNamespace.get(WILDCARD_NAMESPACE));
  }
  return out;
}

function convertListener(
  push: PushContext,
  configNamespace: string,
  listener: Egress,
): SimEgressListener {
  const { hostsByNamespace, excludedByNamespace } = fileEgressHosts(
    listener.hosts,
    configNamespace,
  );
  const matchPort = needsPortMatch(listener);
  return {
    matchPort,
    hostsByNamespace,
    excludedByNamespace,
    virtualServices: selectVirtualServices(
      push.virtualServicesFor(configNamespace),
      hostsByNamespace,
      excludedByNamespace,
    ),
    services: selectServices(
      push.servicesExportedToNamespace(configNamespace),
      configNamespace,
      hostsByNamespace,
      excludedByNamespace,
      matchPort,
    ),
  };
}

type Route = { destination?: { host?: string; port?: { number?: number } } };
type Match = { sourceNamespace?: string };
interface RouteBlock {
  match?: Match[];
  route?: Route[];
  mirror?: { host?: string; port?: { number?: number } };
  mirrors?: { destination?: { host?: string; port?: { number?: number } } }[];
}

/** The route block applies to proxies of `configNamespace` (no match names another source). */
function sourceNamespaceMatches(block: RouteBlock, configNamespace: string): boolean {
  let matched = true;
  for (const m of Array.isArray(block.match) ? block.match : []) {
    if (!m?.sourceNamespace) continue;
    if (m.sourceNamespace === configNamespace) return true;
    matched = false;
  }
  return matched;
}

/** virtualServiceDestinationsFilteredBySourceNamespace: host -> ports (0: unspecified). */
function virtualServiceDestinations(
  vs: VirtualService,
  configNamespace: string,
): Map<string, Set<number>> {
  const spec = vs.spec as { http?: RouteBlock[]; tcp?: RouteBlock[]; tls?: RouteBlock[] };
  const ns = vs.metadata.namespace ?? 'default';
  const out = new Map<string, Set<number>>();
  const add = (d: { host?: string; port?: { number?: number } } | undefined) => {
    if (!d?.host) return;
    const host = resolveShortname(d.host, ns);
    const set = out.get(host) ?? new Set<number>();
    set.add(d.port?.number ?? 0);
    out.set(host, set);
  };
  const list = (v: RouteBlock[] | undefined) => (Array.isArray(v) ? v : []);
  for (const block of [...list(spec.http), ...list(spec.tcp), ...list(spec.tls)]) {
    if (!sourceNamespaceMatches(block, configNamespace)) continue;
    for (const r of Array.isArray(block.route) ? block.route : []) add(r?.destination);
    add(block.mirror);
    for (const m of Array.isArray(block.mirrors) ? block.mirrors : []) add(m?.destination);
  }
  return out;
}

function samePorts(a: readonly SimPort[], b: readonly SimPort[]): boolean {
  return (
    a.length === b.length &&
    a.every(
      (p, i) => p.port === b[i]?.port && p.name === b[i]?.name && p.protocol === b[i]?.protocol,
    )
  );
}

function sameMap(
  a: Readonly<Record<string, string>> | undefined,
  b: Readonly<Record<string, string>> | undefined,
): boolean {
  const ka = Object.keys(a ?? {});
  return ka.length === Object.keys(b ?? {}).length && ka.every((k) => a?.[k] === b?.[k]);
}

function canMergeServices(a: SimService, b: SimService): boolean {
  return (
    a.namespace === b.namespace &&
    a.resolution === b.resolution &&
    a.registry === b.registry &&
    sameMap(a.labels, b.labels) &&
    sameMap(a.selector, b.selector) &&
    a.exportTo.size === b.exportTo.size &&
    [...a.exportTo].every((e) => b.exportTo.has(e))
  );
}

/** appendSidecarServices over one scope's list. */
function serviceList() {
  const services: SimService[] = [];
  const index = new Map<string, number>();
  return {
    services,
    append(s: SimService | null): void {
      if (!s) return;
      const at = index.get(s.hostname);
      if (at === undefined) {
        index.set(s.hostname, services.length);
        services.push(s);
        return;
      }
      const existing = services[at] as SimService;
      if (s === existing) return;
      if (existing.registry === 'Kubernetes' && s.registry !== 'Kubernetes') return;
      if (existing.registry !== 'Kubernetes' && s.registry === 'Kubernetes') {
        services[at] = s;
        return;
      }
      if (samePorts(existing.ports, s.ports) || !canMergeServices(existing, s)) return;
      const have = new Set(existing.ports.map((p) => p.port));
      services[at] = {
        ...existing,
        ports: [...existing.ports, ...s.ports.filter((p) => !have.has(p.port))],
      };
    },
  };
}

/** The first namespace by name whose service of the host is visible to `configNamespace`. */
function pickFirstVisibleNamespace(
  push: PushContext,
  byNamespace: ReadonlyMap<string, SimService>,
  configNamespace: string,
): SimService | undefined {
  const names = [...byNamespace.keys()]
    .filter((ns) => {
      const s = byNamespace.get(ns);
      return s !== undefined && push.isServiceVisible(s, configNamespace);
    })
    .sort();
  return names[0] === undefined ? undefined : byNamespace.get(names[0]);
}

/**
 * The scope's services as the simulated Envoy lists their clusters: in the registry's order
 * (Envoy's own dump order is its own, not the order istiod pushed them in).
 */
function inRegistryOrder(services: readonly SimService[]): SimService[] {
  return [...services].sort((a, b) => a.seq - b.seq);
}

/** ConvertToSidecarScope (a missing Sidecar reads as one `*` egress listener). */
export function convertToSidecarScope(
  push: PushContext,
  sidecar: Sidecar | undefined,
  configNamespace: string,
): SimSidecarScope {
  const written = sidecar?.spec?.egress ?? [];
  const egress: Egress[] = written.length > 0 ? written : [{ hosts: ['*/*'] }];
  const egressListeners = egress.map((e) => convertListener(push, configNamespace, e));
  const list = serviceList();
  for (const l of egressListeners) {
    // the explicitly requested services first: they take priority
    for (const s of l.services) list.append(s);
    for (const { vs } of l.virtualServices) {
      for (const [host, ports] of virtualServiceDestinations(vs, configNamespace)) {
        const byNamespace = push.servicesByNamespace(host);
        const s =
          byNamespace.get(configNamespace) ??
          pickFirstVisibleNamespace(push, byNamespace, configNamespace);
        if (!s) continue;
        list.append(
          l.matchPort !== undefined
            ? serviceMatchingListenerPort(s, l.matchPort)
            : serviceMatchingVirtualServicePorts(s, ports),
        );
      }
    }
  }
  return {
    sidecar,
    namespace: configNamespace,
    egressListeners,
    services: inRegistryOrder(list.services),
  };
}

/** DefaultSidecarScopeForGateway: gateways take every service exported to their namespace. */
export function gatewaySidecarScope(push: PushContext, configNamespace: string): SimSidecarScope {
  const list = serviceList();
  for (const s of push.servicesExportedToNamespace(configNamespace)) list.append(s);
  const services = inRegistryOrder(list.services);
  return {
    namespace: configNamespace,
    egressListeners: [
      {
        hostsByNamespace: new Map(),
        excludedByNamespace: new Map(),
        virtualServices: push.virtualServicesFor(configNamespace),
        services,
      },
    ],
    services,
  };
}
