/**
 * Which hosts a Gateway serves to the VirtualServices bound to it, as istioctl's GatewayAnalyzer
 * reads them (IST0132, VirtualServiceHostNotFoundInGateway): an Istio Gateway's servers[].hosts
 * (`host`, `ns/host`, `./host`, `*\/host`), a Gateway API Gateway's listeners[].hostname (a
 * listener without one takes every host); names match as Istio's host.Name does (a leading `*`
 * a suffix wildcard, either side).
 */
import { scopedHost } from '../refs/object-ref';

/** A Gateway as VirtualServices name it (`namespace/name`) and the hosts it serves. */
export interface ScreenedGateway {
  key: string;
  namespace: string;
  /** Istio's networking Gateway, or a Gateway API Gateway. */
  api: 'istio' | 'gateway-api';
  /** Istio: each server's hosts as written. Gateway API: the listeners' hostnames. */
  hosts: string[][];
  /** A Gateway API listener without hostname: it takes every host. */
  anyHost: boolean;
  /** Why its hosts could not be read (servers or listeners of another shape), else null. */
  unreadable: string | null;
}

const GATEWAY_API_GROUP = 'gateway.networking.k8s.io/';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads a Gateway object (of either API) for the gateway checks. */
export function screenGateway(raw: Obj, key: string, namespace: string): ScreenedGateway {
  const spec = isObj(raw.spec) ? raw.spec : {};
  const apiVersion = typeof raw.apiVersion === 'string' ? raw.apiVersion : '';
  const gatewayApi =
    apiVersion.startsWith(GATEWAY_API_GROUP) || (!apiVersion && 'listeners' in spec);
  const base = { key, namespace, api: gatewayApi ? 'gateway-api' : 'istio' } as const;
  if (gatewayApi) {
    const listeners = spec.listeners ?? [];
    if (!Array.isArray(listeners))
      return { ...base, hosts: [], anyHost: false, unreadable: 'spec.listeners is not a list' };
    const names = listeners.map((l) => (isObj(l) ? l.hostname : undefined));
    const hosts = names.filter((h): h is string => typeof h === 'string' && h !== '');
    return { ...base, hosts: [hosts], anyHost: hosts.length < names.length, unreadable: null };
  }
  const servers = spec.servers ?? [];
  if (!Array.isArray(servers))
    return { ...base, hosts: [], anyHost: false, unreadable: 'spec.servers is not a list' };
  const hosts = servers.map((s) => {
    const list = isObj(s) && Array.isArray(s.hosts) ? s.hosts : [];
    return list.filter((h): h is string => typeof h === 'string');
  });
  return { ...base, hosts, anyHost: false, unreadable: null };
}

/** Istio's host.Name.Matches: equal, or either side a `*` suffix wildcard covering the other. */
export function hostNameMatches(a: string, b: string): boolean {
  const aw = a.startsWith('*');
  const bw = b.startsWith('*');
  if (aw && bw)
    return a.length < b.length ? b.slice(1).endsWith(a.slice(1)) : a.slice(1).endsWith(b.slice(1));
  if (aw) return b.endsWith(a.slice(1));
  if (bw) return a.endsWith(b.slice(1));
  return a === b;
}

/**
 * One server's hosts with their namespace part resolved against the Gateway's namespace: `./h`
 * is the Gateway's namespace, `*\/h` any namespace (`*\/*` makes the server's hosts `*`).
 */
function serverHosts(hosts: readonly string[], gatewayNamespace: string): string[] {
  const out: string[] = [];
  for (const h of hosts) {
    const [ns, name = ''] = h.split('/');
    if (!h.includes('/')) out.push(h);
    else if (ns === '.') out.push(scopedHost(gatewayNamespace, name));
    else if (ns === '*') {
      if (name === '*') return ['*'];
      out.push(name);
    } else out.push(h);
  }
  return out;
}

/** The host names a namespace's VirtualService can bind to: `ns/h` only from that namespace. */
function namesForNamespace(hosts: readonly string[], namespace: string): string[] {
  const out: string[] = [];
  for (const h of hosts) {
    if (!h.includes('/')) {
      out.push(h);
      continue;
    }
    const [ns, name = ''] = h.split('/');
    if (ns === namespace || ns === '*') out.push(name);
  }
  return out;
}

/**
 * Whether any of a VirtualService's hosts is served by the Gateways of that key (none: false,
 * as istioctl finds no host in a Gateway that does not exist). Gateway API Gateways are read
 * only when no Istio Gateway has the key.
 */
export function vsHostInGateways(
  gateways: readonly ScreenedGateway[],
  vsHosts: readonly string[],
  vsNamespace: string,
): boolean {
  const istio = gateways.filter((g) => g.api === 'istio');
  if (istio.length === 0 && gateways.length > 0) {
    if (gateways.some((g) => g.anyHost)) return true;
    const listed = gateways.flatMap((g) => g.hosts.flat());
    return listed.some((gh) => vsHosts.some((vh) => hostNameMatches(gh, vh)));
  }
  const names = namesForNamespace(
    istio.flatMap((g) => g.hosts.flatMap((server) => serverHosts(server, g.namespace))),
    vsNamespace,
  );
  return names.some((gh) => vsHosts.some((vh) => hostNameMatches(gh, vh)));
}
