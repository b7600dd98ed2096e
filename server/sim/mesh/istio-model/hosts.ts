/**
 * Host names as istiod compares them (istio/istio pkg/config/host/name.go and
 * pilot/pkg/model/config.go), written for the simulator's istiod.
 */

export const DOMAIN_SUFFIX = 'cluster.local';

/** `name.ns.svc.cluster.local`: the hostname of a Kubernetes Service (kube ServiceHostname). */
export function kubeServiceHost(name: string, namespace: string): string {
  return `${name}.${namespace}.svc.${DOMAIN_SUFFIX}`;
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/**
 * model.ResolveShortnameToFQDN: `*`, an IP address or a name with a dot stays as written; a short
 * name becomes `name.NS.svc.cluster.local` in the config's namespace. Lower-cased, as the API
 * server keeps DNS names.
 */
export function resolveShortname(hostname: string, namespace: string): string {
  const h = hostname.toLowerCase();
  if (h === '' || h === '*' || h.includes('.') || h.includes(':') || IPV4.test(h)) return h;
  return kubeServiceHost(h, namespace);
}

export function isWildcard(h: string): boolean {
  return h.startsWith('*');
}

/** host.Name.SubsetOf: every name `h` covers is also covered by `o`. */
export function hostSubsetOf(h: string, o: string): boolean {
  if (isWildcard(h)) return isWildcard(o) && h.slice(1).endsWith(o.slice(1));
  if (isWildcard(o)) return h.endsWith(o.slice(1));
  return h === o;
}

/** host.Name.Matches: one of the two covers the other. */
export function hostsMatch(a: string, b: string): boolean {
  return hostSubsetOf(a, b) || hostSubsetOf(b, a);
}

/** host.MoreSpecific: a name beats a wildcard; between two of a kind the longer wins. */
export function moreSpecific(a: string, b: string): boolean {
  const aw = isWildcard(a);
  const bw = isWildcard(b);
  if (aw === bw) return a.length > b.length;
  return !aw;
}

/**
 * model.MostSpecificHostMatch over a map split into exact and wildcard keys: the exact key first,
 * else the most specific wildcard whose suffix covers the needle.
 */
export function mostSpecificHostMatch<V>(
  needle: string,
  specific: ReadonlyMap<string, V>,
  wildcard: ReadonlyMap<string, V>,
): { host: string; value: V } | undefined {
  if (isWildcard(needle)) {
    const exact = wildcard.get(needle);
    if (exact !== undefined) return { host: needle, value: exact };
  } else {
    const exact = specific.get(needle);
    if (exact !== undefined) return { host: needle, value: exact };
  }
  const tail = isWildcard(needle) ? needle.slice(1) : needle;
  let best: { host: string; value: V } | undefined;
  for (const [h, value] of wildcard) {
    if (!tail.endsWith(h.slice(1))) continue;
    if (!best || moreSpecific(h, best.host)) best = { host: h, value };
  }
  return best;
}
