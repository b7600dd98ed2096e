import { describe, expect, it } from 'vitest';
import { upstreamObjects } from '../../../test-support/analyzer-inputs';
import { manifestFindings } from '../manifest';
import { objectKey } from '../../refs/object-ref';

const upstream = upstreamObjects;
const found = (objects: unknown[]) =>
  manifestFindings(objects)
    .findings.filter((f) => f.code === 'IST0130' || f.code === 'IST0131')
    .map(
      (f) =>
        `${f.code} ${objectKey(f.subject.namespace ?? '-', f.subject.name)} ${f.part?.name ?? ''}`,
    )
    .sort();
const vs = (name: string, spec: unknown) => ({
  apiVersion: 'networking.istio.io/v1',
  kind: 'VirtualService',
  metadata: { name, namespace: 'shop' },
  spec: { hosts: ['web'], ...(spec as object) },
});
const route = (match?: unknown[], name?: string) => ({
  ...(name === undefined ? {} : { name }),
  ...(match === undefined ? {} : { match }),
  route: [{ destination: { host: 'web' } }],
});
const prefix = (p: string, extra: object = {}) => ({ uri: { prefix: p }, ...extra });

describe('IST0130 / IST0131 unreachable rules and ineffective matches (schema validation)', () => {
  it("reports istioctl's upstream files as istioctl does", () => {
    const objects = [
      ...upstream('virtualservice_dupmatches.yaml'),
      ...upstream('virtualservice_overlappingmatches.yaml'),
    ];
    const out = found(objects);
    expect(out.filter((x) => x.startsWith('IST0130')).map((x) => x.split(' ')[1])).toEqual([
      'default/duplicate-empty-tcp',
      'default/duplicate-match',
      'default/duplicate-tcp-match',
      'foo/sample-foo-cluster01',
      'none/tls-routing',
    ]);
    expect(out.filter((x) => x.startsWith('IST0131')).map((x) => x.split(' ')[1])).toEqual([
      'default/almost-duplicate-match',
      'default/almost-duplicate-tcp-match',
      'default/duplicate-match',
      'default/duplicate-tcp-match',
      'default/non-method-get',
      'default/overlapping-in-single-match',
      'default/overlapping-in-two-matches',
      'default/overlapping-mathes-with-different-methods',
      'none/tls-routing',
      'none/tls-routing-almostmatch',
    ]);
    const sev = manifestFindings(objects).findings.filter((f) =>
      ['IST0130', 'IST0131'].includes(f.code),
    );
    expect(new Set(sev.map((f) => `${f.code}:${f.severity}`))).toEqual(
      new Set(['IST0130:warning', 'IST0131:info']),
    );
  });

  it('reports each match of a rule after a match-less rule', () => {
    expect(
      found([
        vs('catch-all-first', { http: [route(), route([prefix('/a'), prefix('/b')]), route()] }),
      ]),
    ).toEqual([
      'IST0130 shop/catch-all-first http[1].match[0]',
      'IST0130 shop/catch-all-first http[1].match[1]',
      'IST0130 shop/catch-all-first http[2]',
    ]);
  });

  it('compares matches with names and zero values aside, TCP ports as written', () => {
    expect(
      found([
        vs('zero-values', {
          http: [
            route([{ name: 'a', uri: { exact: '/x' }, ignoreUriCase: false, headers: {} }]),
            route([{ name: 'b', uri: { exact: '/x' }, port: 0 }]),
          ],
        }),
        vs('different', {
          http: [route([{ uri: { exact: '/x' } }]), route([{ uri: { exact: '/x' }, port: 8080 }])],
        }),
        vs('tcp', { tcp: [route([{ port: 80 }]), route([{ port: 81 }])] }),
      ]),
    ).toEqual(['IST0130 shop/zero-values http[1]', 'IST0131 shop/zero-values http[1].match[0]']);
  });

  it('finds covered URI prefixes as istioctl does, and only those', () => {
    expect(
      found([
        vs('covered', { http: [route([prefix('/api')]), route([prefix('/api/v1')])] }),
        vs('reversed', { http: [route([prefix('/api/v1')]), route([prefix('/api')])] }),
        vs('other-port', {
          http: [route([prefix('/api')]), route([prefix('/api/v1', { port: 8080 })])],
        }),
        vs('header-narrower', {
          http: [
            route([prefix('/api')]),
            route([prefix('/api/v1', { headers: { x: { exact: '1' } } })]),
          ],
        }),
        vs('same-prefix', {
          http: [route([prefix('/api')]), route([prefix('/api', { port: 1 })])],
        }),
        vs('regex', { http: [route([{ uri: { regex: '/api.*' } }]), route([prefix('/api/v1')])] }),
      ]),
    ).toEqual(['IST0131 shop/covered http[1].match[0] ~ http[0].match[0]']);
  });

  it('never throws on malformed VirtualServices', () => {
    const objects = [
      vs('http-string', { http: 'route' }),
      vs('nulls', { http: [null, route([null, 3, 'x']), route([null])] }),
      vs('bad-maps', {
        http: [route([prefix('/a', { headers: 'x' })]), route([prefix('/a/b', { headers: [] })])],
      }),
      {
        apiVersion: 'networking.istio.io/v1',
        kind: 'VirtualService',
        metadata: { name: 'no-spec' },
      },
    ];
    expect(() => manifestFindings(objects)).not.toThrow();
    expect(manifestFindings(objects).findings.filter((f) => f.code === 'MDX0003')).toEqual([]);
    // [null] equals the earlier null match, as istioctl compares them
    expect(found(objects)).toContain('IST0131 shop/nulls http[2].match[0]');
  });
});
