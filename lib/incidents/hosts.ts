/** Istio host names: short names in a resource resolve against the resource's namespace. */
import { qualifyServiceHost } from '../refs/service-host';

/**
 * Expands a host as written in a DestinationRule/VirtualService: `reviews` -> in the resource's
 * namespace, `reviews.prod` -> `reviews.prod.svc.<domain>`, FQDNs and wildcards unchanged.
 */
export function expandHost(host: string, resourceNamespace: string, domain: string): string {
  const h = host.trim().toLowerCase();
  if (h === '*' || h.startsWith('*.')) return h;
  return qualifyServiceHost(h, resourceNamespace, { domain, namespaceForm: true });
}

/** How well a (expanded) host pattern matches an FQDN: 0 = no match, higher = more specific. */
export function hostMatchScore(pattern: string, fqdn: string): number {
  const f = fqdn.toLowerCase();
  if (pattern === f) return 1000 + f.length;
  if (pattern === '*') return 1;
  if (pattern.startsWith('*.') && f.endsWith(pattern.slice(1))) return pattern.length;
  return 0;
}
