import { describe, it, expect } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { readFixture } from '../../test-support/fixtures';
import {
  dnsMatches,
  egressHostMatches,
  isExportedTo,
  parseEgressHost,
  parseEgressHosts,
  resolveShortHost,
  serviceExportTo,
  validDnsPattern,
} from './hosts';
import { serviceFqdn } from '../refs/service-host';

const SIDECAR_FIXTURES = [
  ['istio_config', 'analyzer', 'deprecation.yaml'],
  ['istio_config', 'pilot_testdata_config', 'none.yaml'],
  ['istio_config', 'pilot_testdata_config', 'se-example.yaml'],
  ['istio_config', 'pilot_testdata_config', 'se-example-gw.yaml'],
] as const;

/** Egress host strings of every Sidecar in a fixture, read through the generic YAML parser. */
function fixtureEgressHosts(parts: readonly string[]): string[] {
  const docs = parseAllDocuments(readFixture(...parts));
  const out: string[] = [];
  for (const d of docs) {
    const obj = d.toJS() as { kind?: string; spec?: { egress?: { hosts?: string[] }[] } } | null;
    if (obj?.kind !== 'Sidecar') continue;
    for (const e of obj.spec?.egress ?? []) out.push(...(e.hosts ?? []));
  }
  return out;
}

describe('parseEgressHost', () => {
  it('parses the namespace forms', () => {
    const kinds = ['*/*', './*', '~/*', 'istio-system/*'].map((h) => {
      const p = parseEgressHost(h);
      return p.ok ? p.host.namespace.kind : 'error';
    });
    expect(kinds).toEqual(['any', 'own', 'none', 'named']);
  });

  it('reads the exclusions of Istio 1.31 (~ns/*, ~ns/host, ~/host) and keeps ~/* as none', () => {
    const ok = (raw: string) => {
      const r = parseEgressHost(raw);
      if (!r.ok) throw new Error(r.error.message);
      return r.host;
    };
    expect(ok('~dev/*')).toMatchObject({
      namespace: { kind: 'named', name: 'dev' },
      exclude: true,
    });
    expect(ok('~dev/a.dev.svc.cluster.local')).toMatchObject({
      namespace: { kind: 'named', name: 'dev' },
      dns: 'a.dev.svc.cluster.local',
      exclude: true,
    });
    expect(ok('~/api.example.com')).toMatchObject({ namespace: { kind: 'any' }, exclude: true });
    expect(ok('~/*')).toEqual({ raw: '~/*', namespace: { kind: 'none' }, dns: '*' });
    for (const bad of ['~~/*', '~./x', '~*/x', '~Bad_NS/*'])
      expect(parseEgressHost(bad).ok).toBe(false);
  });

  it('keeps wildcard-prefix and exact DNS parts, lowercased', () => {
    const p = parseEgressHost('prod/*.Example.com');
    expect(p.ok && p.host.dns).toBe('*.example.com');
    const q = parseEgressHost('prod/reviews.prod.svc.cluster.local');
    expect(q.ok && q.host.namespace).toEqual({ kind: 'named', name: 'prod' });
  });

  it('turns bad hosts into error data instead of throwing', () => {
    for (const bad of [
      'reviews.default.svc.cluster.local',
      'a/b/c',
      'Bad_NS/x',
      'ns/',
      'ns/foo..com',
      'ns/a*b',
    ]) {
      const p = parseEgressHost(bad, 3);
      expect(p.ok, bad).toBe(false);
      if (!p.ok) {
        expect(p.error.index).toBe(3);
        expect(p.error.raw).toBe(bad);
      }
    }
  });

  it('parses a list, keeping good entries and counting bad ones with positions', () => {
    const r = parseEgressHosts(['./*', 'nohost', 42, 'istio-system/*']);
    expect(r.hosts.map((h) => h.raw)).toEqual(['./*', 'istio-system/*']);
    expect(r.errors.map((e) => e.index)).toEqual([1, 2]);
  });

  it('accepts every egress host of the Sidecars in the Istio fixtures', () => {
    for (const parts of SIDECAR_FIXTURES) {
      const hosts = fixtureEgressHosts(parts);
      const text = readFixture(...parts);
      // Independent count: list items shaped like NAMESPACE/NAME.
      const expected = text
        .split('\n')
        .filter((l) => /^\s*-\s+"?[a-z.*~][a-z0-9.*~-]*\/[^\s"/]+"?(\s*#.*)?$/.test(l)).length;
      expect(hosts.length, parts.join('/')).toBe(expected);
      const r = parseEgressHosts(hosts);
      expect(r.errors).toEqual([]);
      expect(r.hosts.length).toBe(expected);
    }
  });
});

describe('host matching', () => {
  it('matches exact, any and wildcard-prefix DNS patterns', () => {
    expect(dnsMatches('*', 'anything.example')).toBe(true);
    expect(dnsMatches('*.example.com', 'a.example.com')).toBe(true);
    expect(dnsMatches('*.example.com', 'a.b.example.com')).toBe(true);
    expect(dnsMatches('*.example.com', 'example.com')).toBe(false);
    expect(dnsMatches('*.example.com', 'badexample.com')).toBe(false);
    expect(dnsMatches('Foo.Bar', 'foo.bar')).toBe(true);
    expect(dnsMatches('foo.bar', 'foo.bar.baz')).toBe(false);
  });

  it('applies the namespace part of an egress host', () => {
    const host = (raw: string) => {
      const p = parseEgressHost(raw);
      if (!p.ok) throw new Error(p.error.message);
      return p.host;
    };
    const fqdn = serviceFqdn('reviews', 'prod');
    expect(egressHostMatches(host('./*'), 'prod', 'prod', fqdn)).toBe(true);
    expect(egressHostMatches(host('./*'), 'dev', 'prod', fqdn)).toBe(false);
    expect(egressHostMatches(host('*/*'), 'dev', 'prod', fqdn)).toBe(true);
    expect(egressHostMatches(host('~/*'), 'prod', 'prod', fqdn)).toBe(false);
    expect(egressHostMatches(host('prod/*'), 'dev', 'prod', fqdn)).toBe(true);
    expect(egressHostMatches(host('dev/*'), 'dev', 'prod', fqdn)).toBe(false);
    expect(egressHostMatches(host('*/*.prod.svc.cluster.local'), 'dev', 'prod', fqdn)).toBe(true);
    expect(
      egressHostMatches(host('prod/ratings.prod.svc.cluster.local'), 'dev', 'prod', fqdn),
    ).toBe(false);
  });

  it('validates DNS patterns', () => {
    expect(validDnsPattern('*')).toBe(true);
    expect(validDnsPattern('*.a.b')).toBe(true);
    expect(validDnsPattern('*.')).toBe(false);
    expect(validDnsPattern('a..b')).toBe(false);
  });
});

describe('names and exportTo', () => {
  it('builds service FQDNs and expands short hosts in the given namespace', () => {
    expect(serviceFqdn('reviews', 'default')).toBe('reviews.default.svc.cluster.local');
    expect(serviceFqdn('a', 'b', 'corp.local')).toBe('a.b.svc.corp.local');
    expect(resolveShortHost('reviews', 'prod')).toBe('reviews.prod.svc.cluster.local');
    expect(resolveShortHost('reviews.prod', 'dev')).toBe('reviews.prod');
    expect(resolveShortHost('*.prod.svc.cluster.local', 'dev')).toBe('*.prod.svc.cluster.local');
  });

  it('implements exportTo *, ., ~ and explicit namespaces', () => {
    expect(isExportedTo(undefined, 'a', 'b')).toBe(true);
    expect(isExportedTo([], 'a', 'b')).toBe(true);
    expect(isExportedTo(['*'], 'a', 'b')).toBe(true);
    expect(isExportedTo(['.'], 'a', 'a')).toBe(true);
    expect(isExportedTo(['.'], 'a', 'b')).toBe(false);
    expect(isExportedTo(['~'], 'a', 'a')).toBe(false);
    expect(isExportedTo(['.', 'c'], 'a', 'c')).toBe(true);
    expect(isExportedTo(['c'], 'a', 'a')).toBe(false);
    expect(isExportedTo(undefined, 'a', 'b', ['.'])).toBe(false);
  });

  it('reads a Service exportTo annotation', () => {
    expect(serviceExportTo(undefined)).toBeUndefined();
    expect(serviceExportTo({ 'networking.istio.io/exportTo': ' ., istio-system ' })).toEqual([
      '.',
      'istio-system',
    ]);
    expect(serviceExportTo({ 'networking.istio.io/exportTo': ' , ' })).toBeUndefined();
  });
});
