import { describe, expect, it } from 'vitest';
import { upstreamObjects } from '../../../test-support/analyzer-inputs';
import { manifestFindings } from '../manifest';
import { objectKey } from '../../refs/object-ref';

const upstream = upstreamObjects;
const ist0140 = (objects: unknown[]) =>
  manifestFindings(objects).findings.filter((f) => f.code === 'IST0140');
const found = (objects: unknown[]) =>
  ist0140(objects)
    .map((f) => `${objectKey(f.subject.namespace ?? '-', f.subject.name)} ${f.part?.name ?? ''}`)
    .sort();
const vs = (name: string, spec: unknown, namespace = 'shop') => ({
  apiVersion: 'networking.istio.io/v1',
  kind: 'VirtualService',
  metadata: { name, namespace },
  spec,
});
const to = (host: string, subset?: string) => ({
  destination: { host, ...(subset === undefined ? {} : { subset }) },
});
const GW = ['istio-system/public'];
const canary = vs('reviews', {
  hosts: ['reviews'],
  http: [
    {
      route: [
        { ...to('reviews', 'v1'), weight: 90 },
        { ...to('reviews', 'v2'), weight: 10 },
      ],
    },
  ],
});

describe('IST0140 IngressRouteRulesNotAffected (virtualservice.DestinationHostAnalyzer)', () => {
  it("reports istioctl's upstream file as istioctl does", () => {
    expect(found(upstream('virtualservice_route_rule_no_effects_ingress.yaml'))).toEqual([
      'default/testing-service-01-test-01 http[0].route[0] ~ default/ratings-01 #0',
    ]);
    const f = ist0140(upstream('virtualservice_route_rule_no_effects_ingress.yaml'))[0];
    expect(f?.severity).toBe('warning');
    expect(f?.evidence).toMatchObject({
      host: 'ratings',
      subsetVirtualService: 'default/ratings-01',
    });
  });

  it('reports once per subset destination of the mesh VirtualService', () => {
    const ingress = vs('ingress', {
      gateways: GW,
      hosts: ['shop.example.com'],
      http: [{ route: [to('reviews')] }],
    });
    expect(found([canary, ingress])).toEqual([
      'shop/ingress http[0].route[0] ~ shop/reviews #0',
      'shop/ingress http[0].route[0] ~ shop/reviews #1',
    ]);
  });

  it('leaves mesh-only VirtualServices, routes with a subset and other hosts alone', () => {
    expect(
      found([
        canary,
        vs('mesh-client', { hosts: ['web'], http: [{ route: [to('reviews')] }] }),
        vs('empty-gateways', { gateways: [], hosts: ['x'], http: [{ route: [to('reviews')] }] }),
        vs('pinned', { gateways: GW, hosts: ['y'], http: [{ route: [to('reviews', 'v1')] }] }),
        // compared as written, as istioctl compares them
        vs('fqdn', {
          gateways: GW,
          hosts: ['z'],
          http: [{ route: [to('reviews.shop.svc.cluster.local')] }],
        }),
        // a subset VirtualService counts only for destinations of its own hosts
        vs('elsewhere', { hosts: ['a'], http: [{ route: [to('ratings', 'v1')] }] }),
        vs('to-ratings', { gateways: GW, hosts: ['b'], http: [{ route: [to('ratings')] }] }),
      ]),
    ).toEqual([]);
  });

  it('counts the gateway VirtualService itself when it routes one of its hosts by subset', () => {
    expect(
      found([
        vs('both', {
          gateways: ['mesh', ...GW],
          hosts: ['reviews'],
          http: [
            { match: [{ headers: { x: { exact: '1' } } }], route: [to('reviews', 'v2')] },
            { route: [to('reviews')] },
          ],
        }),
      ]),
    ).toEqual(['shop/both http[1].route[0] ~ shop/both #0']);
  });

  it('never throws on malformed VirtualServices', () => {
    const objects = [
      canary,
      vs('spec-list', []),
      vs('http-string', { gateways: GW, http: 'route' }),
      vs('bad-routes', {
        gateways: GW,
        http: [null, { route: [null, 3, { destination: 'reviews' }] }],
      }),
      vs('host-number', { gateways: GW, http: [{ route: [{ destination: { host: 7 } }] }] }),
      vs('gateways-string', { gateways: 'public', http: [{ route: [to('reviews')] }] }),
    ];
    expect(() => manifestFindings(objects)).not.toThrow();
    expect(found(objects)).toEqual([]);
    expect(manifestFindings(objects).findings.filter((f) => f.code === 'MDX0003')).toEqual([]);
  });
});
