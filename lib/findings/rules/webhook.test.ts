import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../test-support/fixtures';
import { manifestFindings } from '../manifest';

const found = (objects: unknown[]) =>
  manifestFindings(objects)
    .findings.filter((f) => f.code === 'IST0139')
    .map((f) => `${f.subject.name} ${f.part?.name ?? ''}`)
    .sort();
const istiod = {
  kind: 'Service',
  metadata: { name: 'istiod', namespace: 'istio-system' },
  spec: {},
};
const mwc = (name: string, webhooks: unknown[], labels: Record<string, string> = {}) => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'MutatingWebhookConfiguration',
  metadata: { name, labels },
  webhooks,
});
const hook = (name: string, selectors: Record<string, unknown>) => ({
  name,
  clientConfig: { service: { name: 'istiod', namespace: 'istio-system' } },
  ...selectors,
});

describe('IST0139 InvalidWebhook (webhook.Analyzer)', () => {
  it("reports istioctl's grid file webhook.yaml as istioctl does", () => {
    const objects = parseAllDocuments(readFixture('istio_config', 'analyzer', 'webhook.yaml')).map(
      (d) => d.toJS() as unknown,
    );
    expect(found(objects)).toEqual([
      'istio-sidecar-injector-missing-overlap webhooks[sidecar-injector.istio.io] overlaps istio-sidecar-injector-overlap/sidecar-injector.istio.io',
      'istio-sidecar-injector-missing-overlap webhooks[sidecar-injector.istio.io].clientConfig.service',
      'istio-sidecar-injector-overlap webhooks[sidecar-injector.istio.io] overlaps istio-sidecar-injector-missing-overlap/sidecar-injector.istio.io',
    ]);
  });

  it('accepts the default and a revision that select disjoint namespaces', () => {
    const revs = mwc('istio-revision-tag-canary', [
      hook('rev.namespace.sidecar-injector.istio.io', {
        namespaceSelector: {
          matchExpressions: [
            { key: 'istio.io/rev', operator: 'In', values: ['canary'] },
            { key: 'istio-injection', operator: 'DoesNotExist' },
          ],
        },
        objectSelector: {
          matchExpressions: [
            { key: 'sidecar.istio.io/inject', operator: 'NotIn', values: ['false'] },
          ],
        },
      }),
    ]);
    const def = mwc('istio-sidecar-injector', [
      hook('namespace.sidecar-injector.istio.io', {
        namespaceSelector: { matchLabels: { 'istio-injection': 'enabled' } },
        objectSelector: {
          matchExpressions: [
            { key: 'sidecar.istio.io/inject', operator: 'NotIn', values: ['false'] },
          ],
        },
      }),
    ]);
    expect(found([revs, def, istiod])).toEqual([]);
    // the same revision served twice: every pod of a canary namespace is injected twice
    const twice = mwc('istio-sidecar-injector-canary', [
      hook('ns.sidecar-injector.istio.io', {
        namespaceSelector: { matchLabels: { 'istio.io/rev': 'canary' } },
      }),
    ]);
    expect(found([revs, twice, istiod])).toHaveLength(2);
  });

  it("ignores other vendors' webhooks and URL webhooks, and survives odd shapes", () => {
    expect(
      found([
        mwc('other', [
          { name: 'a.example.com', clientConfig: { service: { name: 'x', namespace: 'y' } } },
        ]),
        mwc('url', [{ name: 'sidecar-injector.istio.io', clientConfig: { url: 'https://x' } }]),
        mwc('odd', [null, 'x', { name: 3 }]),
        { kind: 'MutatingWebhookConfiguration', metadata: { name: 'none' }, webhooks: 'x' },
        mwc('bad-op', [
          hook('a.istio.io', {
            namespaceSelector: { matchExpressions: [{ key: 'k', operator: 'Near' }] },
          }),
        ]),
        istiod,
      ]),
    ).toEqual([]);
  });
});
