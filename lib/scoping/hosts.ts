/**
 * Istio host rules, pure: Sidecar egress hosts (`NAMESPACE/DNSNAME`), hostname wildcards,
 * short-name expansion and `exportTo` visibility. Shared by the simulator and the Scoping view.
 */
import { DEFAULT_CLUSTER_DOMAIN, qualifyServiceHost } from '../refs/service-host';

/**
 * Namespace part of an egress host: `*` any namespace, `.` the Sidecar's own, `~` none,
 * otherwise an explicit namespace name.
 */
export type EgressNamespace =
  { kind: 'any' } | { kind: 'own' } | { kind: 'none' } | { kind: 'named'; name: string };

export interface EgressHost {
  raw: string;
  namespace: EgressNamespace;
  /** `*`, `*.suffix` or an exact hostname (lowercased). */
  dns: string;
  /**
   * An exclusion (Istio 1.31, istio/istio#60581): `~ns/*` every host of `ns`, `~ns/host` that
   * host of `ns`, `~/host` that host in any namespace. A listener selects a host one of its
   * other hosts includes and no exclusion matches. (`~/*` is still "import nothing".)
   */
  exclude?: true;
}

export interface HostError {
  /** Position of the host in the list it came from (0-based), or -1 when not from a list. */
  index: number;
  raw: string;
  message: string;
}

export type ParsedEgressHost = { ok: true; host: EgressHost } | { ok: false; error: HostError };

const NS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_LABEL = /^[a-z0-9_]([-a-z0-9_]*[a-z0-9_])?$/i;

/** Is `dns` `*`, `*.a.b`, or a plain DNS name made of valid labels? */
export function validDnsPattern(dns: string): boolean {
  if (dns === '*') return true;
  const rest = dns.startsWith('*.') ? dns.slice(2) : dns;
  if (rest.length === 0 || rest.length > 253) return false;
  return rest.split('.').every((label) => DNS_LABEL.test(label));
}

function parseNamespace(ns: string): EgressNamespace | null {
  if (ns === '*') return { kind: 'any' };
  if (ns === '.') return { kind: 'own' };
  if (ns === '~') return { kind: 'none' };
  return NS_LABEL.test(ns) && ns.length <= 63 ? { kind: 'named', name: ns } : null;
}

/** Parse one `NAMESPACE/DNSNAME` entry; a host without `/` is invalid (Istio rejects it). */
export function parseEgressHost(raw: string, index = -1): ParsedEgressHost {
  const fail = (message: string): ParsedEgressHost => ({
    ok: false,
    error: { index, raw, message },
  });
  const text = raw.trim();
  const slash = text.indexOf('/');
  if (slash < 0) return fail(`egress host "${raw}" must be NAMESPACE/DNSNAME`);
  const nsPart = text.slice(0, slash);
  const dnsPart = text.slice(slash + 1).toLowerCase();
  if (dnsPart.includes('/')) return fail(`egress host "${raw}" has more than one "/"`);
  if (!validDnsPattern(dnsPart)) return fail(`egress host "${raw}": invalid DNS name "${dnsPart}"`);
  // `~/*` imports nothing; `~` before anything else excludes (`~` alone: from any namespace)
  if (nsPart.startsWith('~') && !(nsPart === '~' && dnsPart === '*')) {
    // the documented forms only: `~NAME/...` and `~/HOST` (not `~./`, `~*/`)
    const excluded = nsPart === '~' ? { kind: 'any' as const } : parseNamespace(nsPart.slice(1));
    if (!excluded || (nsPart !== '~' && excluded.kind !== 'named'))
      return fail(
        `egress host "${raw}": invalid namespace "${nsPart}" (an exclusion is ~NAMESPACE/HOST or ~/HOST)`,
      );
    return { ok: true, host: { raw, namespace: excluded, dns: dnsPart, exclude: true } };
  }
  const namespace = parseNamespace(nsPart);
  if (!namespace) return fail(`egress host "${raw}": invalid namespace "${nsPart}"`);
  return { ok: true, host: { raw, namespace, dns: dnsPart } };
}

/** Parse a whole `hosts` list: every valid entry, plus one error per invalid one (with its index). */
export function parseEgressHosts(hosts: readonly unknown[]): {
  hosts: EgressHost[];
  errors: HostError[];
} {
  const out: EgressHost[] = [];
  const errors: HostError[] = [];
  hosts.forEach((h, i) => {
    if (typeof h !== 'string') {
      errors.push({ index: i, raw: String(h), message: `egress host #${i} is not a string` });
      return;
    }
    const parsed = parseEgressHost(h, i);
    if (parsed.ok) out.push(parsed.host);
    else errors.push(parsed.error);
  });
  return { hosts: out, errors };
}

/**
 * Does a host pattern match a concrete hostname? `*` matches all, `*.example.com` matches any
 * name ending in `.example.com` (any depth), otherwise exact (case-insensitive).
 */
export function dnsMatches(pattern: string, hostname: string): boolean {
  const p = pattern.toLowerCase();
  const h = hostname.toLowerCase();
  if (p === '*') return true;
  if (p.startsWith('*.')) return h.endsWith(p.slice(1));
  if (p.startsWith('*')) return h.endsWith(p.slice(1));
  return p === h;
}

/**
 * Does egress host `host` of a Sidecar in `sidecarNamespace` match `hostname` in
 * `serviceNamespace`? (An exclusion matches what it excludes: egressSelects combines them.)
 */
export function egressHostMatches(
  host: EgressHost,
  sidecarNamespace: string,
  serviceNamespace: string,
  hostname: string,
): boolean {
  switch (host.namespace.kind) {
    case 'none':
      return false;
    case 'own':
      if (serviceNamespace !== sidecarNamespace) return false;
      break;
    case 'named':
      if (serviceNamespace !== host.namespace.name) return false;
      break;
    case 'any':
      break;
  }
  return dnsMatches(host.dns, hostname);
}

/**
 * Does a listener with egress hosts `hosts` select `hostname` of `serviceNamespace`: one host
 * includes it and no exclusion (`~ns/...`, `~/host`) matches it.
 */
export function egressSelects(
  hosts: readonly EgressHost[],
  sidecarNamespace: string,
  serviceNamespace: string,
  hostname: string,
): boolean {
  return takenUnlessExcluded(hosts, (h) =>
    egressHostMatches(h, sidecarNamespace, serviceNamespace, hostname),
  );
}

/**
 * Istio 1.31's rule for a listener's hosts: something is taken when one host that `matches` it
 * includes it and no exclusion that `matches` it is among them (exclusion over inclusion).
 */
export function takenUnlessExcluded(
  hosts: readonly EgressHost[],
  matches: (h: EgressHost) => boolean,
): boolean {
  let included = false;
  for (const h of hosts) {
    if (!matches(h)) continue;
    if (h.exclude) return false;
    included = true;
  }
  return included;
}

/**
 * Expand a short host as Istio does for DestinationRule/VirtualService hosts: a name without dots
 * becomes `name.<ns>.svc.<domain>`; anything with a dot (or a wildcard) is taken as written.
 */
export function resolveShortHost(
  host: string,
  namespace: string,
  domain = DEFAULT_CLUSTER_DOMAIN,
): string {
  const h = host.toLowerCase();
  if (h === '*') return h;
  return qualifyServiceHost(h, namespace, { domain });
}

/**
 * exportTo semantics: undefined or empty -> `fallback` (mesh default, `*` unless configured);
 * `*` everyone, `.` only the owner's namespace, `~` nobody, names those namespaces.
 */
export function isExportedTo(
  exportTo: readonly string[] | undefined,
  ownerNamespace: string,
  clientNamespace: string,
  fallback: readonly string[] = ['*'],
): boolean {
  const list = exportTo && exportTo.length > 0 ? exportTo : fallback;
  for (const raw of list) {
    const e = raw.trim();
    if (e === '*') return true;
    if (e === '~') continue;
    if (e === '.') {
      if (clientNamespace === ownerNamespace) return true;
      continue;
    }
    if (e === clientNamespace) return true;
  }
  return false;
}

/** A Service's exportTo comes from the `networking.istio.io/exportTo` annotation (comma list). */
export function serviceExportTo(
  annotations: Record<string, string> | undefined,
): string[] | undefined {
  const value = annotations?.['networking.istio.io/exportTo'];
  if (value === undefined) return undefined;
  const parts = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  return parts.length > 0 ? parts : undefined;
}
