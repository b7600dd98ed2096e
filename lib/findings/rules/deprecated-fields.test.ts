import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../test-support/fixtures';
import { manifestFindings } from '../manifest';
import { objectKey } from '../../refs/object-ref';
import { claimOf } from '../claims';

const grid = (file: string): unknown[] =>
  parseAllDocuments(readFixture('istio_config', 'analyzer', file)).map((d) => d.toJS() as unknown);
const deprecated = (objects: unknown[]) =>
  manifestFindings(objects).findings.filter((f) => f.code === 'IST0002');
const found = (objects: unknown[]) =>
  deprecated(objects)
    .map((f) => `${f.subject.kind} ${objectKey(f.subject.namespace ?? '-', f.subject.name)}`)
    .sort();
const vs = (name: string, http: unknown) => ({
  apiVersion: 'networking.istio.io/v1',
  kind: 'VirtualService',
  metadata: { name, namespace: 'shop' },
  spec: { hosts: ['web'], http },
});
const delay = (delayValue: unknown) => [{ fault: { delay: delayValue } }];
const sidecar = (name: string, outboundTrafficPolicy: unknown) => ({
  apiVersion: 'networking.istio.io/v1',
  kind: 'Sidecar',
  metadata: { name, namespace: 'shop' },
  spec: { egress: [{ hosts: ['./*'] }], outboundTrafficPolicy },
});
const crd = (name: string, spec: unknown) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name, namespace: 'ignored' },
  spec,
});

describe('IST0002 Deprecated (deprecation.FieldAnalyzer)', () => {
  it("reports istioctl's grid file as istioctl does: not the EnvoyFilter, not the QuotaSpec", () => {
    expect(found(grid('deprecation.yaml'))).toEqual([
      'Sidecar default/no-selector',
      'VirtualService foo/productpage',
    ]);
    const out = deprecated(grid('deprecation.yaml'));
    expect(out.every((f) => f.severity === 'warning')).toBe(true);
    expect(out.map((f) => claimOf(f)?.analyzer)).toEqual([
      'deprecation.FieldAnalyzer',
      'deprecation.FieldAnalyzer',
    ]);
    expect(out.find((f) => f.subject.kind === 'VirtualService')?.evidence).toMatchObject({
      reftype: 'deprecated field',
      field: 'HTTPRoute.fault.delay.percent',
      routes: 'http[0]',
    });
  });

  it('reports fault.delay.percent above 0 only, once per VirtualService', () => {
    expect(
      found([
        vs('zero', delay({ percent: 0, fixedDelay: '1s' })),
        vs('negative', delay({ percent: -5 })),
        vs('string', delay({ percent: '50' })),
        vs('percentage', delay({ percentage: { value: 50 }, fixedDelay: '1s' })),
        vs('abort-only', [{ fault: { abort: { percent: 50, httpStatus: 503 } } }]),
        vs('two', [...delay({ percent: 10 }), { route: [] }, ...delay({ percent: 20 })]),
      ]),
    ).toEqual(['VirtualService shop/two']);
    expect(
      deprecated([vs('two', [...delay({ percent: 10 }), ...delay({ percent: 1 })])]),
    ).toHaveLength(1);
    expect(
      deprecated([vs('two', [...delay({ percent: 10 }), ...delay({ percent: 1 })])])[0]?.evidence
        .routes,
    ).toBe('http[0], http[1]');
  });

  it('reports a Sidecar egressProxy when it is set, even empty', () => {
    expect(
      found([
        sidecar('set', {
          mode: 'ALLOW_ANY',
          egressProxy: { host: 'proxy', port: { number: 3128 } },
        }),
        sidecar('empty', { egressProxy: {} }),
        sidecar('null', { mode: 'ALLOW_ANY', egressProxy: null }),
        sidecar('mode-only', { mode: 'REGISTRY_ONLY' }),
        sidecar('policy-string', 'ALLOW_ANY'),
      ]),
    ).toEqual(['Sidecar shop/empty', 'Sidecar shop/set']);
  });

  it("reports the CRDs of Istio's removed rbac.istio.io types, cluster-scoped", () => {
    const out = deprecated([
      crd('serviceroles.rbac.istio.io', { group: 'rbac.istio.io', names: { kind: 'ServiceRole' } }),
      crd('clusterrbacconfigs.rbac.istio.io', {
        group: 'rbac.istio.io',
        names: { kind: 'ClusterRbacConfig' },
      }),
      crd('serviceroles.example.com', { group: 'example.com', names: { kind: 'ServiceRole' } }),
      crd('authorizationpolicies.security.istio.io', {
        group: 'security.istio.io',
        names: { kind: 'AuthorizationPolicy' },
      }),
      crd('no-names', { group: 'rbac.istio.io' }),
      crd('no-spec', undefined),
    ]);
    expect(out.map((f) => [f.subject.name, f.subject.namespace, f.evidence.type])).toEqual([
      ['clusterrbacconfigs.rbac.istio.io', undefined, 'ClusterRbacConfig'],
      ['serviceroles.rbac.istio.io', undefined, 'ServiceRole'],
    ]);
    expect(out.map((f) => claimOf(f)?.analyzer)).toEqual([
      'deprecation.FieldAnalyzer',
      'deprecation.FieldAnalyzer',
    ]);
    // the objects of a removed type are not what istioctl reports
    expect(
      found([
        { apiVersion: 'rbac.istio.io/v1alpha1', kind: 'ServiceRole', metadata: { name: 'r' } },
      ]),
    ).toEqual([]);
  });

  it('never throws on odd shapes', () => {
    const out = manifestFindings([
      vs('http-string', 'x'),
      vs('routes-odd', [null, 'x', { fault: 'x' }, { fault: { delay: 'x' } }, { fault: null }]),
      { ...sidecar('spec-string', null), spec: 'x' },
      crd('spec-list', []),
      crd('names-string', { group: 'rbac.istio.io', names: 'ServiceRole' }),
    ]).findings;
    expect(out.filter((f) => f.code === 'MDX0003' || f.code === 'IST0002')).toEqual([]);
  });
});
