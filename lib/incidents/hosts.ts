/** Istio host names: short names in a resource resolve against the resource's namespace. */

/** Splits `name.ns.svc.cluster.local` into name, namespace and cluster domain; null otherwise. */
export function splitServiceFqdn(
  fqdn: string,
): { name: string; namespace: string; domain: string } | null {
  const parts = fqdn.toLowerCase().split('.');
  if (parts.length < 4 || parts[2] !== 'svc') return null;
  const [name, namespace] = parts;
  if (!name || !namespace) return null;
  return { name, namespace, domain: parts.slice(3).join('.') };
}

/**
 * Expands a host as written in a DestinationRule/VirtualService: `reviews` -> in the resource's
 * namespace, `reviews.prod` -> `reviews.prod.svc.<domain>`, FQDNs and wildcards unchanged.
 */
export function expandHost(host: string, resourceNamespace: string, domain: string): string {
  const h = host.trim().toLowerCase();
  if (h === '*' || h.startsWith('*.')) return h;
  const dots = h.split('.').length - 1;
  if (dots === 0) return `${h}.${resourceNamespace}.svc.${domain}`;
  if (dots === 1) return `${h}.svc.${domain}`;
  return h;
}

/** How well a (expanded) host pattern matches an FQDN: 0 = no match, higher = more specific. */
export function hostMatchScore(pattern: string, fqdn: string): number {
  const f = fqdn.toLowerCase();
  if (pattern === f) return 1000 + f.length;
  if (pattern === '*') return 1;
  if (pattern.startsWith('*.') && f.endsWith(pattern.slice(1))) return pattern.length;
  return 0;
}
