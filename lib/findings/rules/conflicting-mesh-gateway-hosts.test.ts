import { describe, expect, it } from 'vitest';
import { gridObjects, upstreamObjects } from '../../../test-support/analyzer-inputs';
import { manifestFindings } from '../manifest';
import { objectKey } from '../../refs/object-ref';
import { CONFLICTING_MESH_GATEWAY_HOSTS } from './conflicting-mesh-gateway-hosts';

const grid = gridObjects;
const upstream = upstreamObjects;
const run = (objects: unknown[]) => manifestFindings(objects).findings;
const found = (objects: unknown[]) =>
  run(objects)
    .filter((f) => f.code === 'IST0109')
    .map((f) => objectKey(f.subject.namespace ?? '-', f.subject.name))
    .sort();
const vs = (namespace: string, name: string, spec: unknown) => ({
  apiVersion: 'networking.istio.io/v1',
  kind: 'VirtualService',
  metadata: { name, namespace },
  spec,
});
const route = [{ route: [{ destination: { host: 'reviews' } }] }];
const mesh = (namespace: string, name: string, extra: Record<string, unknown> = {}) =>
  vs(namespace, name, { hosts: ['reviews'], http: route, ...extra });

describe('IST0109 ConflictingMeshGatewayVirtualServiceHosts (ConflictingMeshGatewayHostsAnalyzer)', () => {
  it("reports istioctl's grid case with exportTo as istioctl does", () => {
    expect(found(grid('virtualservice_conflictingmeshgatewayhosts_with_exportto.yaml'))).toEqual([
      'bar/productpage',
      'bar/productpage-c',
      'bar/productpage-d',
      'foo/productpage',
      'foo/productpage-c',
      'foo/productpage-d',
    ]);
  });

  it("reports istioctl's upstream case (short names, FQDNs, gateways, exportTo)", () => {
    expect(found(upstream('virtualservice_conflictingmeshgatewayhosts.yaml'))).toEqual([
      'bar/ratings',
      'foo/bogus-productpage',
      'foo/productpage',
      'foo/ratings',
      'team2/ratings',
      'team3/ratings',
      'team4/ratings',
    ]);
  });

  it('says who it conflicts with and on which scoped host, once per VirtualService', () => {
    const fs_ = run(upstream('virtualservice_conflictingmeshgatewayhosts.yaml')).filter(
      (f) => f.code === 'IST0109',
    );
    const bar = fs_.filter((f) => f.subject.namespace === 'bar');
    expect(bar).toHaveLength(1);
    expect(bar[0]?.severity).toBe('error');
    // bar/ratings conflicts with foo/ratings on one host and team2/ratings on another
    expect(bar[0]?.evidence).toEqual({
      conflictsWith: 'foo/ratings, team2/ratings',
      hosts: '*/google.com, */ratings.foo.svc.cluster.local',
    });
    const team2 = fs_.find((f) => f.subject.namespace === 'team2');
    expect(team2?.evidence).toEqual({ conflictsWith: 'bar/ratings', hosts: 'team2/google.com' });
  });

  it('reads no gateways, an empty list and `mesh` as the mesh; other gateways alone are not', () => {
    expect(found([mesh('a', 'one'), mesh('a', 'two', { gateways: [] })])).toEqual([
      'a/one',
      'a/two',
    ]);
    expect(found([mesh('a', 'one', { gateways: null }), mesh('a', 'two')])).toEqual([
      'a/one',
      'a/two',
    ]);
    expect(found([mesh('a', 'one', { gateways: ['edge/gw', 'mesh'] }), mesh('a', 'two')])).toEqual([
      'a/one',
      'a/two',
    ]);
    expect(found([mesh('a', 'one', { gateways: ['edge/gw'] }), mesh('a', 'two')])).toEqual([]);
    expect(
      found([mesh('a', 'one', { gateways: ['gw'] }), mesh('a', 'two', { gateways: ['gw'] })]),
    ).toEqual([]);
  });

  it('a short name is the Service of its own namespace; the same name elsewhere is another host', () => {
    expect(found([mesh('a', 'one'), mesh('b', 'two')])).toEqual([]);
    const fqdn = vs('b', 'two', { hosts: ['reviews.a.svc.cluster.local'], http: route });
    expect(found([mesh('a', 'one'), fqdn])).toEqual(['a/one', 'b/two']);
    // `reviews.a` is taken as written (istioctl completes only names without a dot)
    expect(
      found([mesh('a', 'one'), vs('b', 'two', { hosts: ['reviews.a'], http: route })]),
    ).toEqual([]);
  });

  it('scopes hosts by exportTo: `.` is its own namespace, namespaces listed, `*` or none all', () => {
    const local = (ns: string, name: string, exportTo: unknown) =>
      vs(ns, name, { hosts: ['api.example.com'], exportTo, http: route });
    // each only in its own namespace: no namespace sees both
    expect(found([local('a', 'one', ['.']), local('b', 'two', ['.'])])).toEqual([]);
    // `.` of a and `a` listed by b are the same scope
    expect(found([local('a', 'one', ['.']), local('b', 'two', ['a'])])).toEqual(['a/one', 'b/two']);
    // exported to all conflicts with one scoped to a namespace
    expect(found([local('a', 'one', ['.']), local('b', 'two', ['*'])])).toEqual(['a/one', 'b/two']);
    expect(found([local('a', 'one', ['.']), local('b', 'two', [])])).toEqual(['a/one', 'b/two']);
    // `*` among others is all namespaces
    expect(found([local('a', 'one', ['x', '*']), local('b', 'two', null)])).toEqual([
      'a/one',
      'b/two',
    ]);
    // listed twice in one VirtualService's exportTo is one scope, not a conflict with itself
    expect(found([local('a', 'one', ['.', 'a'])])).toEqual([]);
  });

  it('matches wildcards only between a scoped host and one exported to all, as istioctl does', () => {
    const h = (ns: string, name: string, host: string, exportTo?: string[]) =>
      vs(ns, name, { hosts: [host], http: route, ...(exportTo ? { exportTo } : {}) });
    // both exported to all: only equal hosts conflict
    expect(found([h('a', 'one', '*.example.com'), h('b', 'two', 'api.example.com')])).toEqual([]);
    expect(found([h('a', 'one', '*.example.com'), h('b', 'two', '*.example.com')])).toEqual([
      'a/one',
      'b/two',
    ]);
    // a scoped host overlapping a wildcard exported to all, on either side
    expect(found([h('a', 'one', 'api.example.com', ['.']), h('b', 'two', '*.com')])).toEqual([
      'a/one',
      'b/two',
    ]);
    expect(
      found([h('a', 'one', '*.example.com', ['.']), h('b', 'two', 'api.example.com')]),
    ).toEqual(['a/one', 'b/two']);
    expect(
      found([h('a', 'one', '*.example.com', ['.']), h('b', 'two', 'api.example.org')]),
    ).toEqual([]);
    // two scoped hosts do not match by wildcard
    expect(
      found([h('a', 'one', '*.example.com', ['.']), h('b', 'two', 'api.example.com', ['a'])]),
    ).toEqual([]);
  });

  it('a VirtualService listing one host twice conflicts with itself, as istioctl counts it', () => {
    const twice = vs('a', 'twice', {
      hosts: ['reviews', 'reviews.a.svc.cluster.local'],
      http: route,
    });
    const f = run([twice]).filter((x) => x.code === 'IST0109');
    expect(f.map((x) => x.subject.name)).toEqual(['twice']);
    expect(f[0]?.evidence.conflictsWith).toBe('(itself)');
    expect(f[0]?.fix?.why).toContain('more than once');
    expect(found([vs('a', 'once', { hosts: ['reviews', 'ratings'], http: route })])).toEqual([]);
  });

  it('judges no VirtualService whose gateways or exportTo are malformed, and never throws', () => {
    const odd = [
      vs('a', 'gw-string', { hosts: ['reviews'], gateways: 'mesh' }),
      vs('a', 'gw-number', { hosts: ['reviews'], gateways: [7] }),
      vs('a', 'export-object', { hosts: ['reviews'], exportTo: { a: 1 } }),
      vs('a', 'export-number', { hosts: ['reviews'], exportTo: [1] }),
      vs('a', 'no-spec', null),
      vs('a', 'spec-list', []),
      vs('a', 'hosts-string', { hosts: 'reviews' }),
      vs('a', 'hosts-odd', { hosts: [null, 3, { a: 1 }] }),
      vs('a', 'no-hosts', { http: route }),
    ];
    const all = run([...odd, mesh('a', 'real')]);
    expect(all.filter((f) => f.code === 'MDX0003')).toEqual([]);
    expect(found([...odd, mesh('a', 'real')])).toEqual([]);
    // a non-string host is skipped, the others read
    expect(
      found([vs('a', 'mixed', { hosts: [5, 'reviews'], http: route }), mesh('a', 'real')]),
    ).toEqual(['a/mixed', 'a/real']);
  });

  it('reads VirtualServices only, and is not a per-object rule', () => {
    expect(CONFLICTING_MESH_GATEWAY_HOSTS.reads).toEqual(['VirtualService']);
    expect(CONFLICTING_MESH_GATEWAY_HOSTS.perObject).toBeUndefined();
    expect(CONFLICTING_MESH_GATEWAY_HOSTS.analyzer).toBe(
      'virtualservice.ConflictingMeshGatewayHostsAnalyzer',
    );
  });
});
