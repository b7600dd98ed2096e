import { describe, expect, it } from 'vitest';
import { gridObjects, upstreamObjects } from '../../../test-support/analyzer-inputs';
import { manifestFindings } from '../manifest';
import { objectKey } from '../../refs/object-ref';

const grid = gridObjects;
/** An upstream case's input kept in tests/data/istio-analyzer (PROVENANCE.md there). */
const upstream = upstreamObjects;
const run = (objects: unknown[]) => manifestFindings(objects).findings;
const found = (objects: unknown[]) =>
  run(objects)
    .filter((f) => f.code === 'IST0177')
    .map((f) => `${objectKey(f.subject.namespace ?? '-', f.subject.name)}`)
    .sort();
const se = (ns: string, name: string, spec: Record<string, unknown>) => ({
  apiVersion: 'networking.istio.io/v1',
  kind: 'ServiceEntry',
  metadata: { name, namespace: ns },
  spec: { hosts: ['api.example.com'], resolution: 'DNS', ...spec },
});
const port = (protocol: unknown, number: unknown = 8443) => ({
  ports: [{ number, name: `p-${String(protocol)}`, protocol }],
});

describe('IST0177 ConflictingServiceEntryProtocol (serviceentry.ConflictingServiceEntryProtocolAnalyzer)', () => {
  it("agrees with istioctl's grid and upstream cases", () => {
    expect(found(grid('serviceentry-no-conflict-protocol.yaml'))).toEqual([]);
    expect(found(grid('serviceentry-conflicting-exportto.yaml'))).toEqual([]);
    const conflicting = upstream('serviceentry-conflicting-protocol.yaml');
    expect(found(conflicting)).toEqual(['default/se-http', 'default/se-https']);
    const f = run(conflicting).find((x) => x.code === 'IST0177');
    expect(f?.severity).toBe('warning');
    expect(f?.evidence).toMatchObject({
      host: 'example.com',
      port: 13835,
      protocols: 'HTTP, HTTPS',
      serviceEntries: 'default/se-http, default/se-https',
    });
  });

  it('compares protocols without case, and counts an unset protocol as one of its own', () => {
    expect(found([se('a', 'x', port('http')), se('a', 'y', port('HTTP'))])).toEqual([]);
    expect(found([se('a', 'x', port(undefined)), se('a', 'y', port('TCP'))])).toEqual([
      'a/x',
      'a/y',
    ]);
    expect(found([se('a', 'x', port('TLS', 443)), se('a', 'y', port('HTTP', 80))])).toEqual([]);
    expect(
      found([se('a', 'x', port('TLS')), se('a', 'y', { ...port('HTTP'), hosts: ['other.com'] })]),
    ).toEqual([]);
  });

  it('sees conflicts where the exportTo scopes meet: `*` meets every namespace', () => {
    const local = (ns: string, name: string, protocol: string, exportTo: unknown) =>
      se(ns, name, { ...port(protocol), exportTo });
    // ns1's own entry and one exported to every namespace
    expect(
      found([local('ns1', 'own', 'HTTP', ['.']), local('ns2', 'all', 'HTTPS', ['*'])]),
    ).toEqual(['ns1/own', 'ns2/all']);
    // no exportTo is every namespace; an entry exported to ns1 by name meets ns1's own
    expect(
      found([local('ns1', 'own', 'HTTP', ['.']), local('ns2', 'named', 'TLS', ['ns1'])]),
    ).toEqual(['ns1/own', 'ns2/named']);
    expect(found([local('ns1', 'own', 'HTTP', []), se('ns2', 'none', port('TLS'))])).toEqual([
      'ns1/own',
      'ns2/none',
    ]);
    // exported to different namespaces only: they never meet
    expect(found([local('ns1', 'a', 'HTTP', ['ns3']), local('ns2', 'b', 'TLS', ['ns4'])])).toEqual(
      [],
    );
  });

  it('reports each entry once, however many conflicts it takes part in', () => {
    const spec = {
      hosts: ['a.com', 'b.com'],
      ports: [
        { number: 1, name: 'x', protocol: 'HTTP' },
        { number: 2, name: 'y', protocol: 'HTTP' },
      ],
    };
    const other = { ...spec, ports: spec.ports.map((p) => ({ ...p, protocol: 'TLS' })) };
    const third = { hosts: ['a.com'], ports: [{ number: 1, name: 'z', protocol: 'GRPC' }] };
    expect(found([se('a', 'x', spec), se('a', 'y', other), se('a', 'z', third)])).toEqual([
      'a/x',
      'a/y',
      'a/z',
    ]);
  });

  it('survives entries of the wrong shape', () => {
    const odd = [
      se('a', 'hosts-string', { hosts: 'api.example.com', ...port('HTTP') }),
      se('a', 'ports-map', { ports: { number: 8443 } }),
      se('a', 'bad-number', port('TLS', '8443')),
      se('a', 'export-map', { ...port('GRPC'), exportTo: { a: 1 } }),
      se('a', 'ok', port('HTTP')),
      { apiVersion: 'networking.istio.io/v1', kind: 'ServiceEntry', metadata: { name: 'nospec' } },
    ];
    // the exportTo of the wrong shape reads as none (every namespace): GRPC meets HTTP
    expect(found(odd)).toEqual(['a/export-map', 'a/ok']);
    expect(run(odd).filter((f) => f.code === 'MDX0003')).toEqual([]);
  });
});
