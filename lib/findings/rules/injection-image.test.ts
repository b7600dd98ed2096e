import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../test-support/fixtures';
import { manifestFindings } from '../manifest';

const grid = (...files: string[]): unknown[] =>
  files.flatMap((f) =>
    parseAllDocuments(readFixture('istio_config', 'analyzer', f)).map((d) => d.toJS() as unknown),
  );
const found = (objects: unknown[]) =>
  manifestFindings(objects)
    .findings.filter((f) => f.code === 'IST0158')
    .map((f) => `${f.subject.name}: ${String(f.evidence.pods)}`)
    .sort();
const values = (image: string) =>
  JSON.stringify({ global: { hub: 'docker.io/istio', tag: '1.31.0', proxy: { image } } });
const injector = (name: string, v: string) => ({
  kind: 'ConfigMap',
  metadata: { name, namespace: 'istio-system' },
  data: { values: v },
});
const ns = (name: string, labels: Record<string, string>) => ({
  kind: 'Namespace',
  metadata: { name, labels },
});
const pod = (name: string, image: string, extra: Record<string, unknown> = {}) => ({
  kind: 'Pod',
  metadata: { name, namespace: 'shop', ...extra },
  spec: {
    containers: [
      { name: 'app', image: 'app:1' },
      { name: 'istio-proxy', image },
    ],
  },
});
const CURRENT = 'docker.io/istio/proxyv2:1.31.0';

describe('IST0158 PodsIstioProxyImageMismatchInNamespace (injection.ImageAnalyzer)', () => {
  const mismatched =
    'details-v1-pod-old, details-v1-pod-old-pre, details-v1-pod-old-pre-2, details-v1-pod-old-pre-3';
  it("reports istioctl's grid files as istioctl does, per revision's injector", () => {
    expect(
      found(
        grid('injection-with-mismatched-sidecar.yaml', 'common/sidecar-injector-configmap.yaml'),
      ),
    ).toEqual([
      'enabled-namespace-native: details-v1-pod-old-native',
      `enabled-namespace: ${mismatched}`,
    ]);
    expect(
      found(
        grid(
          'injection-with-mismatched-sidecar.yaml',
          'sidecar-injector-configmap-absolute-override.yaml',
          'sidecar-injector-configmap-with-revision-canary.yaml',
        ),
      ),
    ).toEqual([
      'enabled-namespace-native: details-v1-pod-old-native',
      `enabled-namespace: ${mismatched}`,
      'revision-namespace: revision-details-v1-pod-old',
    ]);
  });

  it('takes the image type from ProxyConfigs and the pod annotation', () => {
    expect(
      found(
        grid(
          'injection-image-distroless-no-meshconfig.yaml',
          'common/sidecar-injector-configmap.yaml',
        ),
      ),
    ).toEqual([]);
  });

  it("takes the mesh's image type from the istio ConfigMap, and accepts Istio's types when it is unknown", () => {
    const objects = [
      injector('istio-sidecar-injector', values('proxyv2')),
      ns('shop', { 'istio-injection': 'enabled' }),
      pod('plain', CURRENT),
      pod('distroless', `${CURRENT}-distroless`),
      pod('debug', `${CURRENT}-debug`),
      pod('old', 'docker.io/istio/proxyv2:1.30.0'),
      pod('pinned', 'my/proxy:1', { annotations: { 'sidecar.istio.io/proxyImage': 'my/proxy:1' } }),
    ];
    expect(found(objects)).toEqual(['shop: old']);
    const mesh = (text: string) => ({
      kind: 'ConfigMap',
      metadata: { name: 'istio', namespace: 'istio-system' },
      data: { mesh: text },
    });
    expect(
      found([...objects, mesh('defaultConfig:\n  image:\n    imageType: distroless\n')]),
    ).toEqual(['shop: debug, old']);
    expect(found([...objects, mesh('trustDomain: cluster.local\n')])).toEqual([
      'shop: debug, distroless, old',
    ]);
  });

  it('judges nothing by an injector whose values cannot be read, and survives odd shapes', () => {
    const base = [ns('shop', { 'istio.io/rev': 'default' }), pod('old', 'x/proxyv2:0')];
    for (const v of ['nope', '{}', '{"global":{"proxy":{"image":"proxyv2"}}}', '[]']) {
      expect(found([...base, injector('istio-sidecar-injector', v)])).toEqual([]);
    }
    expect(
      found([...base, injector('istio-sidecar-injector', values('quay.io/me/proxyv2:2'))]),
    ).toEqual(['shop: old']);
    const odd = manifestFindings([
      injector('istio-sidecar-injector', values('proxyv2')),
      ns('shop', { 'istio-injection': 'enabled' }),
      {
        kind: 'Pod',
        metadata: { name: 'a', namespace: 'shop' },
        spec: { containers: 'x', initContainers: [null] },
      },
      {
        kind: 'ProxyConfig',
        metadata: { name: 'pc', namespace: 'shop' },
        spec: { selector: 'x', image: 3 },
      },
    ]).findings;
    expect(odd.filter((f) => f.code === 'MDX0003')).toEqual([]);
  });
});
