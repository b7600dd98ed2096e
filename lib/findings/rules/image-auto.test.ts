import { describe, expect, it } from 'vitest';
import { upstreamObjects } from '../../../test-support/analyzer-inputs';
import { manifestFindings } from '../manifest';
import { objectKey } from '../../refs/object-ref';
import { labelSelectorMatches } from './label-selector';

const upstream = upstreamObjects;
const found = (objects: unknown[]) =>
  manifestFindings(objects)
    .findings.filter((f) => f.code === 'IST0146' || f.code === 'IST0147')
    .map(
      (f) => `${f.code} ${f.subject.kind} ${objectKey(f.subject.namespace ?? '-', f.subject.name)}`,
    )
    .sort();
const AUTO = { name: 'istio-proxy', image: 'auto' };
const pod = (name: string, containers: unknown) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'shop' },
  spec: { containers },
});
const deployment = (name: string, namespace: string, labels: unknown, containers: unknown) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace },
  spec: { template: { metadata: { labels }, spec: { containers } } },
});
const ns = (name: string, labels: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, labels },
});
const webhooks = (hooks: unknown) => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'MutatingWebhookConfiguration',
  metadata: { name: 'istio-sidecar-injector' },
  webhooks: hooks,
});
const INJECTOR = webhooks([
  {
    name: 'rev.namespace.sidecar-injector.istio.io',
    namespaceSelector: {
      matchExpressions: [
        { key: 'istio.io/rev', operator: 'In', values: ['default'] },
        { key: 'istio-injection', operator: 'DoesNotExist' },
      ],
    },
    objectSelector: {
      matchExpressions: [{ key: 'sidecar.istio.io/inject', operator: 'NotIn', values: ['false'] }],
    },
  },
  {
    name: 'namespace.sidecar-injector.istio.io',
    namespaceSelector: { matchLabels: { 'istio-injection': 'enabled' } },
  },
]);

describe('IST0146 / IST0147 image: auto without injection (injection.ImageAutoAnalyzer)', () => {
  it("reports istioctl's upstream file as istioctl does", () => {
    expect(found(upstream('image-auto.yaml'))).toEqual([
      'IST0146 Deployment not-injected/non-injected-gateway-deployment',
      'IST0147 Pod default/injected-pod',
    ]);
    const sev = manifestFindings(upstream('image-auto.yaml')).findings.filter((f) =>
      ['IST0146', 'IST0147'].includes(f.code),
    );
    expect(sev.map((f) => `${f.code}:${f.severity}`).sort()).toEqual([
      'IST0146:warning',
      'IST0147:error',
    ]);
  });

  it('always reports a Pod with image: auto on istio-proxy, webhooks or not', () => {
    expect(
      found([
        INJECTOR,
        ns('shop', { 'istio-injection': 'enabled' }),
        pod('auto', [AUTO]),
        pod('app-auto', [{ name: 'app', image: 'auto' }]),
        pod('real-proxy', [{ name: 'istio-proxy', image: 'docker.io/istio/proxyv2:1.28.0' }]),
        pod('no-containers', 'x'),
      ]),
    ).toEqual(['IST0147 Pod shop/auto']);
  });

  it('warns on a Deployment only when no Istio webhook selects its namespace and pod labels', () => {
    const objects = [
      INJECTOR,
      ns('labelled', { 'istio-injection': 'enabled' }),
      ns('rev', { 'istio.io/rev': 'default' }),
      ns('plain', {}),
      deployment('by-label', 'labelled', {}, [AUTO]),
      deployment('by-rev', 'rev', { app: 'gw' }, [AUTO]),
      deployment('opted-out', 'rev', { 'sidecar.istio.io/inject': 'false' }, [AUTO]),
      deployment('plain', 'plain', {}, [AUTO]),
      deployment('no-namespace-object', 'ghost', {}, [AUTO]),
      deployment('not-auto', 'plain', {}, [{ name: 'istio-proxy', image: 'proxyv2' }]),
    ];
    expect(found(objects)).toEqual([
      'IST0146 Deployment ghost/no-namespace-object',
      'IST0146 Deployment plain/plain',
      'IST0146 Deployment rev/opted-out',
    ]);
  });

  it('counts only webhooks named *istio.io; one without selectors selects everything', () => {
    const other = webhooks([{ name: 'inject.example.com' }]);
    const d = deployment('gw', 'plain', {}, [AUTO]);
    expect(found([other, d])).toEqual(['IST0146 Deployment plain/gw']);
    expect(found([webhooks([{ name: 'catch-all.istio.io' }]), d])).toEqual([]);
    // no webhook at all (a repository's manifests): every image: auto Deployment is reported
    expect(found([d])).toEqual(['IST0146 Deployment plain/gw']);
  });

  it('never throws on malformed webhooks and Deployments', () => {
    const objects = [
      webhooks('not-a-list'),
      webhooks([null, 3, { name: 7 }, { name: 'x.istio.io', namespaceSelector: 'bad' }]),
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'n', namespace: 'a' } },
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 's', namespace: 'a' },
        spec: [],
      },
      deployment('bad-template', 'a', 'labels', [AUTO]),
    ];
    expect(() => manifestFindings(objects)).not.toThrow();
    expect(found(objects)).toEqual(['IST0146 Deployment a/bad-template']);
    expect(manifestFindings(objects).findings.filter((f) => f.code === 'MDX0003')).toEqual([]);
  });
});

describe('labelSelectorMatches', () => {
  const labels = { app: 'web', tier: 'front' };
  it('judges matchLabels and every operator as Kubernetes does', () => {
    expect(labelSelectorMatches(undefined, labels)).toBe(true);
    expect(labelSelectorMatches({}, labels)).toBe(true);
    expect(labelSelectorMatches({ matchLabels: { app: 'web' } }, labels)).toBe(true);
    expect(labelSelectorMatches({ matchLabels: { app: 'api' } }, labels)).toBe(false);
    const expr = (operator: string, values?: string[], key = 'app') => ({
      matchExpressions: [{ key, operator, ...(values ? { values } : {}) }],
    });
    expect(labelSelectorMatches(expr('In', ['web', 'api']), labels)).toBe(true);
    expect(labelSelectorMatches(expr('In', ['api']), labels)).toBe(false);
    expect(labelSelectorMatches(expr('NotIn', ['api']), labels)).toBe(true);
    expect(labelSelectorMatches(expr('NotIn', ['api'], 'missing'), labels)).toBe(true);
    expect(labelSelectorMatches(expr('Exists'), labels)).toBe(true);
    expect(labelSelectorMatches(expr('DoesNotExist'), labels)).toBe(false);
    expect(labelSelectorMatches(expr('DoesNotExist', undefined, 'x'), labels)).toBe(true);
  });
  it('matches nothing with a selector Kubernetes refuses', () => {
    expect(labelSelectorMatches('app=web', labels)).toBe(false);
    expect(labelSelectorMatches({ matchLabels: ['app'] }, labels)).toBe(false);
    expect(labelSelectorMatches({ matchLabels: { app: 1 } }, labels)).toBe(false);
    expect(
      labelSelectorMatches({ matchExpressions: [{ key: 'app', operator: 'In' }] }, labels),
    ).toBe(false);
    expect(
      labelSelectorMatches(
        { matchExpressions: [{ key: 'app', operator: 'Exists', values: ['x'] }] },
        labels,
      ),
    ).toBe(false);
    expect(
      labelSelectorMatches({ matchExpressions: [{ key: 'app', operator: 'Gt' }] }, labels),
    ).toBe(false);
    expect(labelSelectorMatches({ matchExpressions: [null] }, labels)).toBe(false);
  });
});
