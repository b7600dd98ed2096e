/**
 * Expected envoy_cluster_manager_active_clusters of a proxy, worked out in the test from the raw
 * objects with Istio's rules written out here (deliberately not lib/scoping, which is what is
 * under test, nor the simulator's sidecar-scope.ts, which plays istiod):
 *
 *   5 bootstrap clusters (prometheus_stats, agent, sds-grpc, xds-grpc, zipkin)
 * + BlackHoleCluster (+ PassthroughCluster and InboundPassthroughCluster on sidecars: gateways
 *   have no original-dst listeners, istio/istio pilot/pkg/networking/core/cluster.go buildClusters)
 * + one inbound cluster per distinct target port of the pod's own Services (sidecars)
 * + for each service visible under the Sidecar's egress hosts: ports x (1 + DestinationRule subsets)
 * + for each service a VirtualService routes to, when an egress host takes that VirtualService's
 *   host in its namespace and no egress host took the service: its destination port (every port
 *   when none is given) x (1 + subsets)
 *
 * Only the egress host forms the scenarios use are understood (`ns/*`, `./*`, `~/*`, `* /*`, an
 * exact `ns/host`, and the exclusions `~ns/host`, `~ns/*`, `~/host`), and VirtualServices only in the plain form the tests create (exact FQDN hosts,
 * http route destinations by FQDN, no gateways/exportTo/match); anything else throws, so a
 * scenario change cannot make the check vacuous.
 */
import type { Pod, Sidecar, VirtualService } from '../../lib/kube/types';
import type { IstioConfig } from '../../lib/kube/istio-config';

export interface RawMesh
  extends
    Pick<IstioConfig, 'services' | 'serviceEntries' | 'destinationRules' | 'sidecars'>,
    Partial<Pick<IstioConfig, 'virtualServices'>> {
  rootNamespace: string;
}

const ns = (o: { metadata: { namespace?: string } }) => o.metadata.namespace ?? 'default';

function isGateway(pod: Pod): boolean {
  const px = [...pod.spec.containers, ...(pod.spec.initContainers ?? [])].find(
    (c) => c.name === 'istio-proxy',
  );
  return px?.args?.includes('router') ?? false;
}

function hasAll(selector: Record<string, string> | undefined, labels: Record<string, string>) {
  const keys = Object.keys(selector ?? {});
  return keys.length > 0 && keys.every((k) => labels[k] === selector?.[k]);
}

/** The Sidecar that applies: own workloadSelector one, else namespace default, else root default. */
export function sidecarFor(pod: Pod, mesh: RawMesh): Sidecar | undefined {
  const labels = pod.metadata.labels ?? {};
  const mine = mesh.sidecars.filter((s) => ns(s) === ns(pod));
  const withSelector = mine.filter((s) => hasAll(s.spec.workloadSelector?.labels, labels));
  const plain = (list: readonly Sidecar[]) =>
    list.filter((s) => Object.keys(s.spec.workloadSelector?.labels ?? {}).length === 0);
  const candidates = [
    withSelector,
    plain(mine),
    plain(mesh.sidecars.filter((s) => ns(s) === mesh.rootNamespace)),
  ];
  for (const c of candidates) {
    if (c.length > 1) throw new Error(`ambiguous Sidecars for ${pod.metadata.name}`);
    if (c.length === 1) return c[0];
  }
  return undefined;
}

/**
 * Istio 1.31's exclusions (istio/istio#60581): `~ns/host` drops that exact host of `ns`, `~ns/*`
 * every host of `ns`, `~/host` that host in any namespace, whatever the other hosts take.
 */
function excludes(h: string, svcNs: string, host: string): boolean {
  const [hostNs = '', dns] = h.split('/');
  if (!hostNs.startsWith('~') || h === '~/*') return false;
  const wantNs = hostNs.slice(1);
  if (wantNs !== '' && wantNs !== svcNs) return false;
  if (dns === '*') return true;
  if (dns && !dns.includes('*')) return dns === host;
  throw new Error(`exclusion form not covered by this test: ${h}`);
}

/** Some egress host takes `host` of `svcNs` and no exclusion drops it. */
function selects(hosts: readonly string[], clientNs: string, svcNs: string, host: string) {
  if (hosts.some((h) => excludes(h, svcNs, host))) return false;
  return hosts.some((h) => takes(h, clientNs, svcNs, host));
}

/** Does egress host `h` (of a Sidecar applied in `clientNs`) take `host` living in `svcNs`? */
function takes(h: string, clientNs: string, svcNs: string, host: string): boolean {
  const [hostNs, dns] = h.split('/');
  if (hostNs?.startsWith('~')) return false;
  const wantNs = hostNs === '.' ? clientNs : hostNs;
  if (wantNs !== '*' && wantNs !== svcNs) return false;
  if (dns === '*') return true;
  if (dns && !dns.includes('*')) return dns === host;
  throw new Error(`egress host form not covered by this test: ${h}`);
}

function exported(exportTo: readonly string[] | undefined, owner: string, client: string) {
  if (!exportTo || exportTo.length === 0) return true;
  return exportTo.some((e) => e === '*' || e === client || (e === '.' && owner === client));
}

function subsetsFor(host: string, clientNs: string, svcNs: string, mesh: RawMesh): number {
  for (const where of [clientNs, svcNs, mesh.rootNamespace]) {
    const hit = mesh.destinationRules.find((dr) => {
      const h = dr.spec.host.includes('.')
        ? dr.spec.host
        : `${dr.spec.host}.${ns(dr)}.svc.cluster.local`;
      if (h.includes('*'))
        throw new Error(`wildcard DestinationRule not covered: ${dr.metadata.name}`);
      return ns(dr) === where && h === host && exported(dr.spec.exportTo, ns(dr), clientNs);
    });
    if (hit) return hit.spec.subsets?.length ?? 0;
  }
  return 0;
}

function inboundPorts(pod: Pod, mesh: RawMesh): number {
  const ports = new Set<number>();
  const labels = pod.metadata.labels ?? {};
  for (const s of mesh.services) {
    if (ns(s) !== ns(pod) || !hasAll(s.spec.selector, labels)) continue;
    for (const p of s.spec.ports ?? []) {
      const t = p.targetPort ?? p.port;
      if (typeof t === 'number' || /^\d+$/.test(t)) ports.add(Number(t));
      else {
        const named = pod.spec.containers.flatMap((c) => c.ports ?? []).find((cp) => cp.name === t);
        if (named) ports.add(named.containerPort);
      }
    }
  }
  return ports.size;
}

/** Outbound clusters under a list of egress hosts (undefined: no Sidecar, everything exported). */
export function expectedOutbound(
  clientNs: string,
  egressHosts: readonly string[] | undefined,
  mesh: RawMesh,
): number {
  const hosts = egressHosts ?? ['*/*'];
  let n = 0;
  const seen = new Set<string>();
  const count = (svcNs: string, host: string, ports: number, exportTo?: readonly string[]) => {
    if (!exported(exportTo, svcNs, clientNs) || seen.has(host)) return;
    if (!selects(hosts, clientNs, svcNs, host)) return;
    seen.add(host);
    n += ports * (1 + subsetsFor(host, clientNs, svcNs, mesh));
  };
  for (const s of mesh.services) {
    const annotation = s.metadata.annotations?.['networking.istio.io/exportTo'];
    const host = `${s.metadata.name}.${ns(s)}.svc.cluster.local`;
    count(ns(s), host, s.spec.ports?.length ?? 0, annotation?.split(','));
  }
  for (const se of mesh.serviceEntries)
    for (const h of se.spec.hosts) count(ns(se), h, se.spec.ports?.length ?? 0, se.spec.exportTo);
  for (const vs of mesh.virtualServices ?? []) {
    for (const [host, port] of plainRoutes(vs)) {
      if (seen.has(host)) continue;
      if (!(vs.spec.hosts ?? []).some((vh) => selects(hosts, clientNs, ns(vs), vh))) continue;
      const svc = mesh.services.find(
        (s) => `${s.metadata.name}.${ns(s)}.svc.cluster.local` === host,
      );
      if (!svc) throw new Error(`VirtualService ${vs.metadata.name} routes to unknown ${host}`);
      const ports = (svc.spec.ports ?? []).filter((p) => port === undefined || p.port === port);
      seen.add(host);
      n += ports.length * (1 + subsetsFor(host, clientNs, ns(svc), mesh));
    }
  }
  return n;
}

/** host -> port (undefined: every port) of a VirtualService in the form the tests create. */
function plainRoutes(vs: VirtualService): Map<string, number | undefined> {
  const spec = vs.spec as VirtualService['spec'] & Record<string, unknown>;
  const unsupported = ['gateways', 'exportTo', 'tcp', 'tls'].filter((k) => spec[k] !== undefined);
  if (unsupported.length > 0 || (spec.hosts ?? []).some((h) => !h.endsWith('.svc.cluster.local')))
    throw new Error(`VirtualService form not covered by this test: ${vs.metadata.name}`);
  const out = new Map<string, number | undefined>();
  for (const block of spec.http ?? []) {
    if ('match' in block || 'mirror' in block || 'mirrors' in block)
      throw new Error(`VirtualService route form not covered: ${vs.metadata.name}`);
    for (const r of block.route ?? []) {
      const d = r.destination;
      if (!d?.host.endsWith('.svc.cluster.local'))
        throw new Error(`destination not an FQDN: ${vs.metadata.name}`);
      if (out.has(d.host)) throw new Error(`one route per host only: ${vs.metadata.name}`);
      out.set(d.host, d.port?.number);
    }
  }
  return out;
}

function egressHostsOf(sidecar: Sidecar | undefined): string[] | undefined {
  if (!sidecar) return undefined;
  const egress = sidecar.spec.egress ?? [];
  if (egress.length === 0) return undefined;
  if (egress.some((e) => e.port)) throw new Error('egress listeners with ports not covered');
  return egress.flatMap((e) => e.hosts);
}

/** The whole active_clusters gauge of `pod` under `egressHosts` (default: its own Sidecar's). */
export function expectedActive(pod: Pod, mesh: RawMesh, egressHosts?: readonly string[]): number {
  const gateway = isGateway(pod);
  const hosts = egressHosts ?? (gateway ? undefined : egressHostsOf(sidecarFor(pod, mesh)));
  const fixed = 5 + 1 + (gateway ? 0 : 2);
  const inbound = gateway ? 0 : inboundPorts(pod, mesh);
  return fixed + inbound + expectedOutbound(ns(pod), hosts, mesh);
}
