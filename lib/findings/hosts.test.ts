import { describe, expect, it } from 'vitest';
import type { Service, ServiceEntry } from '../kube/types';
import {
  buildRegistry,
  destinationHost,
  indexHosts,
  lookupHost,
  toFqdn,
  type RegistryHost,
} from './hosts';
import { stringMap } from './rules/raw';

const svc = (name: string, ns: string, exportTo?: string): Service => ({
  kind: 'Service',
  metadata: {
    name,
    namespace: ns,
    annotations: exportTo === undefined ? undefined : { 'networking.istio.io/exportTo': exportTo },
  },
  spec: { selector: { app: name }, ports: [{ name: 'http', port: 80 }] },
});
const se = (name: string, hosts: string[], ns: string, exportTo?: string[]): ServiceEntry => ({
  kind: 'ServiceEntry',
  metadata: { name, namespace: ns },
  spec: { hosts, exportTo, ports: [{ number: 443, name: 'https', protocol: 'HTTPS' }] },
});

/** The lookups as they were written before the index: a scan of every entry. */
const wildcardMatch = (pattern: string, host: string) =>
  pattern === '*' || (pattern.startsWith('*') && host.endsWith(pattern.slice(1)));
function scanLookup(registry: readonly RegistryHost[], host: string, from: string) {
  const fqdn = toFqdn(host, from);
  const visible = registry.filter((r) => r.visibleIn.has('*') || r.visibleIn.has(from));
  return (
    visible.find((r) => r.host === fqdn) ??
    visible.find((r) => wildcardMatch(r.host, fqdn)) ??
    (fqdn.startsWith('*') ? visible.find((r) => wildcardMatch(fqdn, r.host)) : undefined)
  );
}
function scanDestination(
  registry: readonly RegistryHost[],
  host: string,
  from: string,
  exportTo: readonly string[] | undefined,
) {
  const fqdn = toFqdn(host, from);
  const exact = registry.filter((r) => r.host === fqdn);
  const scopes = (exportTo !== undefined && exportTo.length > 0 ? exportTo : ['.']).map((e) =>
    e === '.' ? from : e,
  );
  const bare = host.startsWith('*') ? host.slice(1) : host;
  return (
    exact.find((r) => r.visibleIn.has('*')) ??
    exact.find((r) => scopes.some((sc) => r.visibleIn.has(sc))) ??
    registry.find(
      (r) =>
        r.host.startsWith('*') &&
        (r.visibleIn.has('*') || r.visibleIn.has(from)) &&
        bare.endsWith(r.host.slice(1)),
    )
  );
}

/**
 * The index a report builds once (indexHosts) answers every lookup as the scan of the registry
 * did: the first entry of the registry's order that matches, for exact hosts, wildcard hosts
 * and wildcard references alike.
 */
describe('the indexed registry', () => {
  const registry = buildRegistry(
    [svc('reviews', 'default', '.'), svc('reviews', 'default'), svc('ratings', 'team')],
    [
      se('narrow', ['*.api.example.com'], 'egress', ['team']),
      se('broad', ['*.example.com'], 'egress'),
      se('everything', ['*'], 'mesh', ['.']),
      se('exact', ['db.example.com'], 'egress', ['.']),
    ],
  );
  const index = indexHosts(registry);
  const asked: [string, string][] = [
    ['reviews', 'default'],
    ['reviews', 'other'],
    ['reviews.default.svc.cluster.local', 'other'],
    ['ratings.team.svc.cluster.local', 'default'],
    ['v1.api.example.com', 'team'],
    ['v1.api.example.com', 'default'],
    ['db.example.com', 'default'],
    ['db.example.com', 'egress'],
    ['nothing.internal', 'mesh'],
    ['*.example.com', 'default'],
    ['*.team.svc.cluster.local', 'default'],
    ['*', 'default'],
  ];

  it('finds what the scan finds, the same entry', () => {
    for (const [host, from] of asked) {
      expect(lookupHost(index, host, from), `${host} from ${from}`).toBe(
        scanLookup(registry, host, from),
      );
      expect(lookupHost(registry, host, from)).toBe(scanLookup(registry, host, from));
      for (const exportTo of [undefined, ['*'], ['team', 'egress']])
        expect(destinationHost(index, host, from, exportTo), `${host} from ${from}`).toBe(
          scanDestination(registry, host, from, exportTo),
        );
    }
    expect(lookupHost(index, 'v1.api.example.com', 'team')?.serviceEntry?.metadata.name).toBe(
      'narrow',
    );
    expect(lookupHost(index, 'v1.api.example.com', 'default')?.serviceEntry?.metadata.name).toBe(
      'broad',
    );
    expect(lookupHost(index, 'reviews', 'other')).toBeUndefined();
  });

  it('is built once: an index given is the index used', () => {
    expect(indexHosts(index)).toBe(index);
  });
});

describe('stringMap', () => {
  it('keeps the string entries in their order, an own __proto__ key as an entry', () => {
    const labels = JSON.parse('{"b":"1","n":2,"__proto__":"x","a":"3","o":{}}') as unknown;
    const m = stringMap(labels);
    expect(Object.entries(m)).toEqual([
      ['b', '1'],
      ['__proto__', 'x'],
      ['a', '3'],
    ]);
    expect(Object.getPrototypeOf(m)).toBe(Object.prototype);
    expect(stringMap(null)).toEqual({});
    expect(stringMap(['a'])).toEqual({});
  });
});
