import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../test-support/fixtures';
import { manifestFindings } from '../manifest';
import { objectKey } from '../../refs/object-ref';

const grid = (file: string): unknown[] =>
  parseAllDocuments(readFixture('istio_config', 'analyzer', file)).map((d) => d.toJS() as unknown);
const found = (objects: unknown[]) =>
  manifestFindings(objects)
    .findings.filter((f) => f.code === 'IST0160')
    .map(
      (f) =>
        `${objectKey(f.subject.namespace ?? '-', f.subject.name)}: ${String(f.evidence.telemetries)}`,
    )
    .sort();
const telemetry = (name: string, namespace: string | undefined, spec?: unknown) => ({
  apiVersion: 'telemetry.istio.io/v1',
  kind: 'Telemetry',
  metadata: namespace === undefined ? { name } : { name, namespace },
  ...(spec === undefined ? {} : { spec }),
});
const metrics = { metrics: [{ providers: [{ name: 'prometheus' }] }] };

describe('IST0160 MultipleTelemetriesWithoutWorkloadSelectors (telemetry.DefaultSelectorAnalyzer)', () => {
  it("reports istioctl's grid file as istioctl does: each selector-less Telemetry of ns2", () => {
    expect(found(grid('telemetry-default-selector.yaml'))).toEqual([
      'ns2/has-conflict-1: has-conflict-1, has-conflict-2',
      'ns2/has-conflict-2: has-conflict-1, has-conflict-2',
    ]);
    const f = manifestFindings(grid('telemetry-default-selector.yaml')).findings.find(
      (x) => x.code === 'IST0160',
    );
    expect(f?.severity).toBe('error');
    expect(f?.evidence.scope).toBe('namespace');
  });

  it('counts per namespace: one selector-less Telemetry per namespace is fine', () => {
    expect(
      found([telemetry('a', 'shop', metrics), telemetry('b', 'pay', metrics), telemetry('c', 'x')]),
    ).toEqual([]);
    // a manifest without a namespace lands in default, as kubectl applies it
    expect(found([telemetry('a', undefined, metrics), telemetry('b', 'default')])).toEqual([
      'default/a: a, b',
      'default/b: a, b',
    ]);
  });

  it('names all of three, and says when the conflict is mesh-wide (root namespace)', () => {
    const out = manifestFindings([
      telemetry('m1', 'istio-system', metrics),
      telemetry('m2', 'istio-system', {}),
      telemetry('m3', 'istio-system'),
    ]).findings.filter((f) => f.code === 'IST0160');
    expect(out.map((f) => f.subject.name)).toEqual(['m1', 'm2', 'm3']);
    expect(out.every((f) => f.evidence.telemetries === 'm1, m2, m3')).toBe(true);
    expect(out[0]?.evidence.scope).toBe('mesh (root namespace)');
  });

  it('follows istiod: an empty selector is namespace-wide, a targetRefs Telemetry is not', () => {
    expect(
      found([
        telemetry('empty-selector', 'shop', { selector: {}, ...metrics }),
        telemetry('empty-labels', 'shop', { selector: { matchLabels: {} } }),
        telemetry('null-selector', 'shop', { selector: null }),
        telemetry('selected', 'shop', { selector: { matchLabels: { app: 'web' } } }),
        telemetry('waypoint', 'shop', { targetRefs: [{ kind: 'Gateway', name: 'waypoint' }] }),
        telemetry('gateway', 'shop', { targetRef: { kind: 'Gateway', name: 'gw' } }),
      ]),
    ).toEqual([
      'shop/empty-labels: empty-labels, empty-selector, null-selector',
      'shop/empty-selector: empty-labels, empty-selector, null-selector',
      'shop/null-selector: empty-labels, empty-selector, null-selector',
    ]);
    // an empty targetRefs list binds to nothing: the Telemetry is namespace-wide
    expect(found([telemetry('a', 'shop', { targetRefs: [] }), telemetry('b', 'shop')])).toEqual([
      'shop/a: a, b',
      'shop/b: a, b',
    ]);
  });

  it('leaves out Telemetries istioctl cannot read, and never throws', () => {
    const out = manifestFindings([
      telemetry('ok', 'shop'),
      telemetry('spec-string', 'shop', 'x'),
      telemetry('selector-string', 'shop', { selector: 'app=web' }),
      telemetry('selector-list', 'shop', { selector: [] }),
      telemetry('labels-string', 'shop', { selector: { matchLabels: 'x' } }),
      telemetry('refs-string', 'shop', { targetRefs: 'x', targetRef: 7 }),
    ]).findings;
    expect(out.filter((f) => f.code === 'MDX0003')).toEqual([]);
    // alone with the readable one: no conflict
    expect(out.filter((f) => f.code === 'IST0160')).toEqual([]);
    expect(
      found([telemetry('ok', 'shop'), telemetry('ok-too', 'shop', { targetRef: null })]),
    ).toEqual(['shop/ok-too: ok, ok-too', 'shop/ok: ok, ok-too']);
  });
});
