/**
 * A Kubernetes Service's host name as Istio writes it: `NAME.NAMESPACE.svc.DOMAIN`
 * (`reviews.default.svc.cluster.local`), the cluster domain `cluster.local` unless the mesh says
 * otherwise. Formatted (serviceFqdn), read (parseServiceFqdn) and completed from the short forms
 * a config object may write (qualifyServiceHost) here only.
 *
 * Short forms: Istio's own rule for a host in a DestinationRule, VirtualService or ServiceEntry
 * (istio/istio pilot/pkg/model ResolveShortnameToFQDN) completes a name without a dot with the
 * referring object's namespace and `.svc.DOMAIN`, and takes a name with a dot as written.
 * Kubernetes DNS also resolves `NAME.NAMESPACE`; where meshdx matches hosts a person typed, that
 * form is completed too (`namespaceForm`).
 */

export const DEFAULT_CLUSTER_DOMAIN = 'cluster.local';

export interface ServiceHost {
  readonly name: string;
  readonly namespace: string;
  /** The cluster domain after `.svc.`: `cluster.local`, `corp.example`. */
  readonly domain: string;
}

/** `NAME.NAMESPACE.svc.DOMAIN`: the host name Istio gives a Kubernetes Service. */
export function serviceFqdn(
  name: string,
  namespace: string,
  domain: string = DEFAULT_CLUSTER_DOMAIN,
): string {
  return name + '.' + namespace + '.svc.' + domain;
}

/**
 * Reads `NAME.NAMESPACE.svc.DOMAIN` (case-insensitive, returned lower-cased); null for any other
 * host (`reviews`, `reviews.default`, `httpbin.org`, `*.svc.cluster.local`, an empty domain).
 */
export function parseServiceFqdn(host: string): ServiceHost | null {
  const parts = host.toLowerCase().split('.');
  if (parts.length < 4 || parts[2] !== 'svc') return null;
  const [name, namespace] = parts;
  if (!name || !namespace) return null;
  return { name, namespace, domain: parts.slice(3).join('.') };
}

/**
 * Completes a short host: `NAME` (no dot) to the Service of that name in `namespace`, and with
 * `namespaceForm` `NAME.NAMESPACE` (one dot) to its FQDN; any other host comes back as written.
 * Case and wildcards are the caller's: `*` has no dot and is completed like a name.
 */
export function qualifyServiceHost(
  host: string,
  namespace: string,
  options: { domain?: string; namespaceForm?: boolean } = {},
): string {
  const domain = options.domain ?? DEFAULT_CLUSTER_DOMAIN;
  const dot = host.indexOf('.');
  if (dot < 0) return serviceFqdn(host, namespace, domain);
  if (options.namespaceForm && host.indexOf('.', dot + 1) < 0)
    return serviceFqdn(host.slice(0, dot), host.slice(dot + 1), domain);
  return host;
}
