import { describe, expect, it } from 'vitest';
import { upstreamObjects } from '../../../test-support/analyzer-inputs';
import { manifestFindings } from '../manifest';
import { objectKey } from '../../refs/object-ref';

const upstream = upstreamObjects;
const found = (objects: unknown[]) =>
  manifestFindings(objects)
    .findings.filter((f) => f.code === 'IST0167')
    .map((f) => objectKey(f.subject.namespace ?? '-', f.subject.name))
    .sort();
const ns = (name: string, labels: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, labels },
});
const pod = (name: string, namespace: string, labels: unknown, ambient = true) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name,
    namespace,
    labels,
    ...(ambient ? { annotations: { 'ambient.istio.io/redirection': 'enabled' } } : {}),
  },
  spec: { containers: [{ name: 'app', image: 'app' }] },
});
const sidecar = (name: string, namespace: string | undefined, spec?: unknown) => ({
  apiVersion: 'networking.istio.io/v1',
  kind: 'Sidecar',
  metadata: namespace === undefined ? { name } : { name, namespace },
  ...(spec === undefined ? {} : { spec }),
});
const selecting = (labels: unknown) => ({ workloadSelector: { labels } });
const AMBIENT = { 'istio.io/dataplane-mode': 'ambient' };

describe('IST0167 IneffectivePolicy on Sidecars (sidecar.SelectorAnalyzer)', () => {
  it("reports istioctl's upstream file as istioctl does: the two Sidecars of ns-ambient", () => {
    expect(found(upstream('sidecar-default-selector.yaml'))).toEqual([
      'ns-ambient/namespace-scoped',
      'ns-ambient/pod-scoped',
    ]);
    const f = manifestFindings(upstream('sidecar-default-selector.yaml')).findings.find(
      (x) => x.code === 'IST0167' && x.subject.name === 'pod-scoped',
    );
    expect(f?.severity).toBe('warning');
    expect(f?.evidence.ambientPods).toBe('random-pod-ambient');
  });

  it('takes a namespace with sidecar injection or a revision as not ambient', () => {
    expect(
      found([
        ns('inj', { ...AMBIENT, 'istio-injection': 'enabled' }),
        ns('rev', { ...AMBIENT, 'istio.io/rev': 'canary' }),
        ns('empty-rev', { ...AMBIENT, 'istio.io/rev': '' }),
        ns('disabled', { ...AMBIENT, 'istio-injection': 'disabled' }),
        ns('plain'),
        sidecar('a', 'inj'),
        sidecar('b', 'rev'),
        sidecar('c', 'empty-rev'),
        sidecar('d', 'disabled', {}),
        sidecar('e', 'plain'),
        // no Namespace object: istioctl cannot tell it is ambient
        sidecar('f', 'unknown-ns'),
      ]),
    ).toEqual(['disabled/d', 'empty-rev/c']);
  });

  it('reports each Sidecar once, whatever the number of ambient pods it selects', () => {
    const objects = [
      ns('shop', AMBIENT),
      pod('web-1', 'shop', { app: 'web' }),
      pod('web-2', 'shop', { app: 'web' }),
      sidecar('web', 'shop', selecting({ app: 'web' })),
      sidecar('ns-wide', 'shop', selecting({})),
    ];
    expect(found(objects)).toEqual(['shop/ns-wide', 'shop/web']);
    const web = manifestFindings(objects).findings.find(
      (f) => f.code === 'IST0167' && f.subject.name === 'web',
    );
    expect(web?.evidence.ambientPods).toBe('web-1, web-2');
  });

  it('matches ambient pods of its own namespace only, by label set, annotated ones only', () => {
    expect(
      found([
        pod('other-ns', 'pay', { app: 'web' }),
        pod('sidecar-pod', 'shop', { app: 'api' }, false),
        pod('partial', 'shop', { app: 'db' }),
        sidecar('cross-ns', 'shop', selecting({ app: 'web' })),
        sidecar('not-ambient', 'shop', selecting({ app: 'api' })),
        sidecar('more-labels', 'shop', selecting({ app: 'db', tier: 'x' })),
        // a pod-scoped Sidecar in a non-ambient namespace still hits an ambient pod
        pod('mixed', 'legacy', { app: 'm' }),
        sidecar('mixed', 'legacy', selecting({ app: 'm' })),
      ]),
    ).toEqual(['legacy/mixed']);
  });

  it('never throws on malformed Sidecars, pods and namespaces, and skips what it cannot read', () => {
    const objects = [
      ns('shop', AMBIENT),
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'weird', labels: 'x' } },
      pod('p', 'shop', 'not-a-map'),
      sidecar('spec-list', 'shop', []),
      sidecar('selector-string', 'shop', { workloadSelector: 'app=web' }),
      sidecar('labels-list', 'shop', selecting(['app'])),
      sidecar('labels-number', 'shop', selecting({ app: 1 })),
      sidecar('null-selector', 'shop', { workloadSelector: null }),
      sidecar('no-ns', undefined),
    ];
    expect(() => manifestFindings(objects)).not.toThrow();
    expect(found(objects)).toEqual(['shop/null-selector']);
    expect(manifestFindings(objects).findings.filter((f) => f.code === 'MDX0003')).toEqual([]);
  });
});
