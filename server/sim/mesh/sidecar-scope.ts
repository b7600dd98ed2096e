/**
 * The simulator's own reading of Istio's Sidecar scoping, written from istiod's sidecar.go and
 * kept apart from lib/scoping on purpose: meshdx predicts with lib/scoping, the simulator plays
 * istiod with this file, so a test that applies a Sidecar and compares the two checks something.
 *
 * - Selection: a Sidecar in the pod's namespace whose workloadSelector labels the pod has, else
 *   the namespace's selector-less one, else the selector-less one in the root namespace; the
 *   oldest (then by name) wins at each level.
 * - Egress hosts `NS/DNS`: `*` any namespace, `.` the proxy's namespace (also for the root
 *   default), `~` or any other literal matches only that namespace (no service lives in `~`).
 *   DNS: exact, or `*` / `*.suffix` covering the service host (a wildcard ServiceEntry host is
 *   imported only by a wildcard egress host that covers it: `*.foo.com` is not a subset of
 *   `bar.foo.com`, Istio's host.Name.SubsetOf).
 * - A listener with a port keeps only that port of a matched service.
 * - exportTo (`networking.istio.io/exportTo` on Services, spec.exportTo on ServiceEntries and
 *   VirtualServices): unset = `*`; `.` owner's namespace; `~` nobody; else namespace names.
 * - Services that are destinations of the VirtualServices a listener imports are added too
 *   (istiod's collectImportedServices), preferring the proxy's namespace, else the first visible
 *   namespace by name, limited to the destination ports (or the listener's port).
 */
import type { Pod, Sidecar, VirtualService } from '../../../lib/kube/types';
import type { IstioConfig } from '../../../lib/kube/istio-config';
import { hostsMatch, hostSubsetOf, resolveShortname } from './istio-model/hosts';
import { buildRegistry, visibleTo, type SimPort, type SimService } from './istio-model/registry';

export { hostSubsetOf };

export type SimSidecarLevel = 'workload' | 'namespace' | 'root' | 'none';

export interface SimSidecarChoice {
  sidecar?: Sidecar;
  level: SimSidecarLevel;
}

const nsOf = (o: { metadata: { namespace?: string } }) => o.metadata.namespace ?? 'default';

function selectorOf(s: Sidecar): Record<string, string> | null {
  const labels = s.spec?.workloadSelector?.labels ?? {};
  return Object.keys(labels).length > 0 ? labels : null;
}

function oldest(list: Sidecar[]): Sidecar | undefined {
  const time = (s: Sidecar) => {
    const t = Date.parse(s.metadata.creationTimestamp ?? '');
    return Number.isNaN(t) ? Infinity : t;
  };
  return [...list].sort(
    (a, b) => time(a) - time(b) || a.metadata.name.localeCompare(b.metadata.name),
  )[0];
}

export function simSidecarFor(
  pod: Pod,
  sidecars: readonly Sidecar[],
  rootNamespace: string,
): SimSidecarChoice {
  const ns = nsOf(pod);
  const labels = pod.metadata.labels ?? {};
  const own = sidecars.filter((s) => nsOf(s) === ns);
  const byWorkload = oldest(
    own.filter((s) => {
      const sel = selectorOf(s);
      return sel !== null && Object.entries(sel).every(([k, v]) => labels[k] === v);
    }),
  );
  if (byWorkload) return { sidecar: byWorkload, level: 'workload' };
  const nsDefault = oldest(own.filter((s) => selectorOf(s) === null));
  if (nsDefault) return { sidecar: nsDefault, level: 'namespace' };
  const root = oldest(sidecars.filter((s) => nsOf(s) === rootNamespace && selectorOf(s) === null));
  return root ? { sidecar: root, level: 'root' } : { level: 'none' };
}

interface Listener {
  /** Namespace (`*` or a name, `.` already replaced) -> DNS patterns. */
  hosts: Map<string, string[]>;
  port?: number;
}

function listenersOf(sidecar: Sidecar | undefined, configNs: string): Listener[] {
  const egress = sidecar?.spec?.egress ?? [];
  if (egress.length === 0) return [{ hosts: new Map([['*', ['*']]]) }];
  return egress.map((e) => {
    const hosts = new Map<string, string[]>();
    for (const raw of Array.isArray(e.hosts) ? e.hosts : []) {
      if (typeof raw !== 'string' || raw.split('/').length !== 2) continue; // istiod logs and skips
      const [nsPart = '', dns = ''] = raw.split('/');
      const ns = nsPart === '.' ? configNs : nsPart;
      hosts.set(ns, [...(hosts.get(ns) ?? []), dns.toLowerCase()]);
    }
    const port = e.port?.number;
    const proxyProtocol = (e.port?.protocol ?? '').toUpperCase() === 'HTTP_PROXY';
    return { hosts, port: port && !proxyProtocol ? port : undefined };
  });
}

function listenerTakes(l: Listener, ns: string, hostname: string): boolean {
  const covered = (patterns: string[] | undefined) =>
    (patterns ?? []).some((p) => p === hostname || hostSubsetOf(hostname, p));
  return covered(l.hosts.get(ns)) || covered(l.hosts.get('*'));
}

/** A host as written in a VirtualService, short names resolved against its namespace. */
function resolveHost(host: string, ns: string): string {
  return resolveShortname(host, ns);
}

type Route = { destination?: { host?: string; port?: { number?: number } } };
type LooseVs = VirtualService['spec'] & {
  tcp?: { route?: Route[] }[];
  tls?: { route?: Route[] }[];
};

/** Destination host -> ports (0 = every port) over http, tcp and tls routes. */
function vsDestinations(vs: VirtualService): Map<string, Set<number>> {
  const spec = vs.spec as LooseVs;
  const out = new Map<string, Set<number>>();
  const blocks = [...(spec.http ?? []), ...(spec.tcp ?? []), ...(spec.tls ?? [])];
  for (const block of blocks) {
    for (const r of (block.route ?? []) as Route[]) {
      if (!r.destination?.host) continue;
      const h = resolveHost(r.destination.host, nsOf(vs));
      const set = out.get(h) ?? new Set<number>();
      set.add(r.destination.port?.number ?? 0);
      out.set(h, set);
    }
  }
  return out;
}

function vsImported(
  vs: VirtualService,
  l: Listener,
  configNs: string,
  exportDefaults: readonly string[] | undefined,
): boolean {
  const gateways = vs.spec?.gateways ?? [];
  if (gateways.length > 0 && !gateways.includes('mesh')) return false;
  if (!visibleTo(vs.spec?.exportTo ?? [], nsOf(vs), configNs, exportDefaults)) return false;
  const patterns = [...(l.hosts.get(nsOf(vs)) ?? []), ...(l.hosts.get('*') ?? [])];
  return (vs.spec?.hosts ?? []).some((h) => {
    const host = resolveHost(h, nsOf(vs));
    return patterns.some((p) => p === host || hostsMatch(host, p));
  });
}

function keepPorts(ports: SimPort[], wanted: Set<number> | null): SimPort[] {
  if (!wanted || wanted.size === 0 || wanted.has(0)) return ports;
  return ports.filter((p) => wanted.has(p.port));
}

export interface SimScopeInput extends Pick<
  IstioConfig,
  'services' | 'serviceEntries' | 'virtualServices'
> {
  /** MeshConfig defaultServiceExportTo / defaultVirtualServiceExportTo (unset: `*`). */
  exportToDefaults?: { service?: readonly string[]; virtualService?: readonly string[] };
}

/**
 * The services (with the ports kept) a proxy in `configNs` gets under `sidecar` (undefined: no
 * Sidecar, every exported service). Gateways pass no Sidecar.
 */
export function simVisibleServices(
  configNs: string,
  sidecar: Sidecar | undefined,
  input: SimScopeInput,
): SimService[] {
  const all = buildRegistry(input.services, input.serviceEntries).filter((svc) =>
    visibleTo(svc.exportTo, svc.namespace, configNs, input.exportToDefaults?.service),
  );
  const listeners = listenersOf(sidecar, configNs);
  const byHost = new Map<string, SimService>();
  const add = (svc: SimService, ports: SimPort[]) => {
    if (ports.length === 0) return;
    const have = byHost.get(svc.hostname);
    if (!have) {
      byHost.set(svc.hostname, { ...svc, ports });
      return;
    }
    if (have.namespace !== svc.namespace || have.kind !== svc.kind) return;
    const seen = new Set(have.ports.map((p) => p.port));
    have.ports = [...have.ports, ...ports.filter((p) => !seen.has(p.port))];
  };
  for (const l of listeners) {
    const portOf = (svc: SimService) =>
      l.port === undefined ? svc.ports : svc.ports.filter((p) => p.port === l.port);
    // explicit imports; one namespace per hostname (the proxy's own if it has it)
    const picked = new Map<string, SimService>();
    for (const svc of all) {
      if (!listenerTakes(l, svc.namespace, svc.hostname)) continue;
      const prev = picked.get(svc.hostname);
      if (!prev || (svc.namespace === configNs && prev.namespace !== configNs))
        picked.set(svc.hostname, svc);
    }
    for (const svc of picked.values()) add(svc, portOf(svc));
    // destinations of imported VirtualServices
    for (const vs of input.virtualServices) {
      if (!vsImported(vs, l, configNs, input.exportToDefaults?.virtualService)) continue;
      for (const [host, ports] of vsDestinations(vs)) {
        const candidates = all.filter((svc) => svc.hostname === host);
        const chosen =
          candidates.find((s) => s.namespace === configNs) ??
          [...candidates].sort((a, b) => a.namespace.localeCompare(b.namespace))[0];
        if (!chosen) continue;
        add(chosen, l.port === undefined ? keepPorts(chosen.ports, ports) : portOf(chosen));
      }
    }
  }
  return [...byHost.values()];
}
