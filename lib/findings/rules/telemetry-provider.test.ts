import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../test-support/fixtures';
import { manifestFindings } from '../manifest';
import { objectKey } from '../../refs/object-ref';

const grid = (file: string): unknown[] =>
  parseAllDocuments(readFixture('istio_config', 'analyzer', file)).map((d) => d.toJS() as unknown);
const found = (objects: unknown[], rootNamespace?: string) =>
  manifestFindings(objects, rootNamespace === undefined ? {} : { rootNamespace })
    .findings.filter((f) => f.code === 'IST0157')
    .map(
      (f) =>
        `${objectKey(f.subject.namespace ?? '-', f.subject.name)}: ${String(f.evidence.entries)}`,
    )
    .sort();
const telemetry = (name: string, spec: unknown, namespace = 'shop') => ({
  apiVersion: 'telemetry.istio.io/v1',
  kind: 'Telemetry',
  metadata: { name, namespace },
  spec,
});
const istio = (data: Record<string, unknown>, namespace = 'istio-system') => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'istio', namespace },
  data,
});
const filterOnly = telemetry('filter-only', {
  accessLogging: [{ filter: { expression: 'response.code >= 400' } }],
});

describe('IST0157 InvalidTelemetryProvider (telemetry.ProviderAnalyzer)', () => {
  it("reports istioctl's grid files as istioctl does", () => {
    expect(found(grid('telemetry-invalid-provider.yaml'))).toEqual([
      'istio-system/mesh-default: accessLogging[1]',
    ]);
    // disabled: true needs no provider
    expect(found(grid('telemetry-disable-provider.yaml'))).toEqual([]);
    const f = manifestFindings(grid('telemetry-invalid-provider.yaml')).findings.find(
      (x) => x.code === 'IST0157',
    );
    expect(f?.severity).toBe('warning');
  });

  it('reports once per Telemetry, naming every entry without a provider', () => {
    expect(
      found([
        telemetry('two', {
          accessLogging: [{}, { providers: [] }, { providers: [{ name: 'envoy' }] }],
        }),
        telemetry('null-providers', { accessLogging: [{ providers: null, disabled: false }] }),
      ]),
    ).toEqual([
      'shop/null-providers: accessLogging[0]',
      'shop/two: accessLogging[0], accessLogging[1]',
    ]);
  });

  it("says nothing when the istio ConfigMap's mesh config has a default access log provider", () => {
    const withDefault = istio({ mesh: 'defaultProviders:\n  accessLogging:\n  - envoy\n' });
    expect(found([filterOnly, withDefault])).toEqual([]);
    // an empty list is no default
    expect(
      found([filterOnly, istio({ mesh: 'defaultProviders:\n  accessLogging: []\n' })]),
    ).toEqual(['shop/filter-only: accessLogging[0]']);
    // no mesh key, an empty one: Istio's defaults (no default access log provider)
    for (const data of [{}, { mesh: '' }, { meshNetworks: 'networks: {}' }]) {
      expect(found([filterOnly, istio(data)])).toEqual(['shop/filter-only: accessLogging[0]']);
    }
  });

  it("takes the root namespace's istio ConfigMap first, else another one", () => {
    const withDefault = istio(
      { mesh: 'defaultProviders: {accessLogging: [envoy]}' },
      'istio-other',
    );
    expect(found([filterOnly, withDefault])).toEqual([]);
    expect(found([filterOnly, withDefault, istio({ mesh: 'trustDomain: x' })])).toEqual([
      'shop/filter-only: accessLogging[0]',
    ]);
    expect(
      found([filterOnly, withDefault, istio({ mesh: 'trustDomain: x' })], 'istio-other'),
    ).toEqual([]);
    // a ConfigMap of another name is not the mesh config
    const other = {
      ...withDefault,
      metadata: { name: 'istio-sidecar-injector', namespace: 'istio-system' },
    };
    expect(found([filterOnly, other])).toEqual(['shop/filter-only: accessLogging[0]']);
  });

  it("reads a mesh config it cannot read as none: Istio's defaults", () => {
    for (const mesh of ['defaultProviders: [', '- a\n- b\n', 'just text', 7]) {
      expect(found([filterOnly, istio({ mesh })])).toEqual(['shop/filter-only: accessLogging[0]']);
    }
  });

  it('takes the mesh config given beside the objects (a bare file) over the ConfigMap', () => {
    const given = (meshConfig: Record<string, unknown> | null) =>
      manifestFindings([filterOnly, istio({ mesh: 'trustDomain: x' })], {
        given: { meshConfig },
      }).findings.filter((f) => f.code === 'IST0157');
    expect(given({ defaultProviders: { accessLogging: ['envoy'] } })).toEqual([]);
    expect(given({ defaultProviders: { accessLogging: 'envoy' } })).toHaveLength(1);
    expect(given(null)).toHaveLength(1);
    const withDefault = istio({ mesh: 'defaultProviders: {accessLogging: [envoy]}' });
    expect(
      manifestFindings([filterOnly, withDefault], {
        given: { meshConfig: { trustDomain: 'x' } },
      }).findings.filter((f) => f.code === 'IST0157'),
    ).toHaveLength(1);
  });

  it('leaves entries and Telemetries istioctl cannot read alone, and never throws', () => {
    const out = manifestFindings([
      telemetry('no-spec', undefined),
      telemetry('spec-string', 'x'),
      telemetry('logging-string', { accessLogging: 'x' }),
      telemetry('entries-odd', { accessLogging: [null, 'x', 3, { providers: 'envoy' }] }),
      telemetry('disabled-string', { accessLogging: [{ disabled: 'true' }] }),
      telemetry('metrics-only', { metrics: [{ providers: [] }] }),
      istio({ mesh: 'defaultProviders: {accessLogging: envoy}' }),
    ]).findings;
    expect(out.filter((f) => f.code === 'MDX0003' || f.code === 'IST0157')).toEqual([]);
  });
});
