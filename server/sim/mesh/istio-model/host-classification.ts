/**
 * The egress hosts of one Sidecar listener as istiod files them (hostClassification per
 * namespace), and the exclusions of Istio 1.31 (istio/istio#60581) filed apart.
 */
import { hostsMatch, hostSubsetOf, isWildcard } from './hosts';

export const WILDCARD_NAMESPACE = '*';
const CURRENT_NAMESPACE = '.';

/** hostClassification: one namespace's egress hosts. */
export class HostClassification {
  readonly exact = new Set<string>();
  readonly all: string[] = [];

  add(host: string): void {
    if (!isWildcard(host)) this.exact.add(host);
    this.all.push(host);
  }

  /** Matches: a service host is one of them or a subset of a wildcard among them. */
  matches(h: string): boolean {
    if (this.exact.has(h)) return true;
    return this.all.some((i) => (isWildcard(h) || isWildcard(i)) && hostSubsetOf(h, i));
  }

  /** VSMatches, outside gateway semantics: a VirtualService host matching either way. */
  vsMatches(h: string): boolean {
    if (this.exact.has(h)) return true;
    return this.all.some((i) => (isWildcard(h) || isWildcard(i)) && hostsMatch(h, i));
  }
}

/** Is host `h` of namespace `ns` excluded by the listener (its namespace's or `~/host`)? */
export function excluded(
  excludedByNamespace: ReadonlyMap<string, HostClassification>,
  ns: string,
  h: string,
  vs = false,
): boolean {
  for (const key of [ns, WILDCARD_NAMESPACE]) {
    const hc = excludedByNamespace.get(key);
    if (hc && (vs ? hc.vsMatches(h) : hc.matches(h))) return true;
  }
  return false;
}

/** A listener's `hosts`, filed by namespace (`.` is `configNamespace`), exclusions apart. */
export function fileEgressHosts(
  hosts: unknown,
  configNamespace: string,
): {
  hostsByNamespace: Map<string, HostClassification>;
  excludedByNamespace: Map<string, HostClassification>;
} {
  const hostsByNamespace = new Map<string, HostClassification>();
  const excludedByNamespace = new Map<string, HostClassification>();
  for (const raw of Array.isArray(hosts) ? hosts : []) {
    if (typeof raw !== 'string' || raw.split('/').length !== 2) continue; // istiod logs and skips
    const [written = '', name = ''] = raw.split('/');
    // `~/*` is the namespace "~", which holds nothing; `~ns/...` and `~/host` exclude
    const exclusion = written.startsWith('~') && !(written === '~' && name === '*');
    const into = exclusion ? excludedByNamespace : hostsByNamespace;
    const key = exclusion ? written.slice(1) || WILDCARD_NAMESPACE : written;
    const ns = key === CURRENT_NAMESPACE ? configNamespace : key;
    let hc = into.get(ns);
    if (!hc) into.set(ns, (hc = new HostClassification()));
    hc.add(name.toLowerCase());
  }
  return { hostsByNamespace, excludedByNamespace };
}
