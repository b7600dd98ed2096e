import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../test-support/fixtures';
import { manifestFindings } from '../manifest';

const CODES = new Set(['IST0102', 'IST0123', 'IST0148']);
const grid = (...files: string[]): unknown[] =>
  files.flatMap((f) =>
    parseAllDocuments(readFixture('istio_config', 'analyzer', f)).map((d) => d.toJS() as unknown),
  );
const found = (objects: unknown[]) =>
  manifestFindings(objects)
    .findings.filter((f) => CODES.has(f.code))
    .map((f) => `${f.code} ${f.subject.name}`)
    .sort();
const ns = (name: string, labels: Record<string, string> = {}) => ({
  kind: 'Namespace',
  metadata: { name, labels },
});
const injector = (values: string) => ({
  kind: 'ConfigMap',
  metadata: { name: 'istio-sidecar-injector', namespace: 'istio-system' },
  data: { values },
});

describe('injection.Analyzer on namespaces: IST0102, IST0123, IST0148', () => {
  const multi = [
    'IST0123 busted',
    'IST0123 multi-ns-1',
    'IST0123 multi-ns-2',
    'IST0123 multi-ns-3',
  ];
  it("reports istioctl's grid file injection.yaml as istioctl does", () => {
    expect(found(grid('injection.yaml'))).toEqual(['IST0102 bar', ...multi]);
  });

  it('says IST0148 instead of IST0102 when the injector enables namespaces by default', () => {
    expect(
      found(grid('injection.yaml', 'common/sidecar-injector-enabled-nsbydefault.yaml')),
    ).toEqual([...multi, 'IST0148 bar']);
  });

  it("names the conflicting labels, and leaves disabled, ambient and Kubernetes' namespaces be", () => {
    const fs = manifestFindings([
      ns('both', { 'istio-injection': 'enabled', 'istio.io/rev': 'canary' }),
      ns('off', { 'istio-injection': 'disabled', 'istio.io/dataplane-mode': 'ambient' }),
      ns('amb', { 'istio.io/dataplane-mode': 'ambient' }),
      ns('empty-legacy', { 'istio-injection': '' }),
      ns('istio-system'),
      // Kubernetes' own namespaces are left out, as istioctl leaves them
      ns('kube-system'),
      ns('kube-public'),
      ns('kube-node-lease'),
      ns('local-path-storage'),
    ]).findings.filter((f) => CODES.has(f.code));
    expect(fs.map((f) => [f.code, f.severity, f.subject.name, f.evidence.labels ?? null])).toEqual([
      ['IST0123', 'warning', 'both', 'istio-injection=enabled, istio.io/rev=canary'],
      ['IST0102', 'info', 'empty-legacy', null],
    ]);
  });

  it('reads an injector ConfigMap of any shape without throwing', () => {
    for (const values of ['not json', '[]', '{"sidecarInjectorWebhook": 3}', '{}']) {
      expect(found([ns('app'), injector(values)])).toEqual(['IST0102 app']);
    }
    expect(
      found([ns('app'), { kind: 'ConfigMap', metadata: { name: 'istio-sidecar-injector' } }]),
    ).toEqual(['IST0102 app']);
    expect(
      found([ns('app'), injector('{"sidecarInjectorWebhook":{"enableNamespacesByDefault":true}}')]),
    ).toEqual(['IST0148 app']);
  });
});
