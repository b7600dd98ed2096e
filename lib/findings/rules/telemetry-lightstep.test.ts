import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../test-support/fixtures';
import { manifestFindings } from '../manifest';
import { objectKey } from '../../refs/object-ref';
import { claimOf } from '../claims';
import { ALL_CATALOG } from '../registry';
import { TELEMETRY_LIGHTSTEP } from './telemetry-lightstep';
import { DEPRECATED_FIELDS } from './deprecated-fields';

const text = (file: string) => readFixture('istio_config', 'analyzer', file);
const grid = (file: string): unknown[] =>
  parseAllDocuments(text(file)).map((d) => d.toJS() as unknown);
const lightstep = (objects: unknown[]) =>
  manifestFindings(objects).findings.filter(
    (f) => f.code === 'IST0002' && f.evidence.reftype === 'lightstep provider',
  );
const found = (objects: unknown[]) =>
  lightstep(objects)
    .map(
      (f) =>
        `${objectKey(f.subject.namespace ?? '-', f.subject.name)}: ${String(f.evidence.provider)}`,
    )
    .sort();
const istio = (mesh: unknown) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'istio', namespace: 'istio-system' },
  data: { mesh },
});
/** The grid's mesh config file as a cluster holds it: the istio ConfigMap's `mesh`. */
const GRID_MESH = istio(text('telemetry-lightstep-meshconfig.yaml'));
const tracing = (name: string, ...providers: string[][]) => ({
  apiVersion: 'telemetry.istio.io/v1',
  kind: 'Telemetry',
  metadata: { name, namespace: 'shop' },
  spec: { tracing: providers.map((p) => ({ providers: p.map((n) => ({ name: n })) })) },
});
const providers = (...list: unknown[]) => istio(JSON.stringify({ extensionProviders: list }));

describe('IST0002 Deprecated for Lightstep providers (telemetry.LightstepAnalyzer)', () => {
  it("reports istioctl's grid case with its mesh config in the istio ConfigMap", () => {
    const out = lightstep([...grid('telemetry-lightstep.yaml'), GRID_MESH]);
    expect(out.map((f) => [f.subject.kind, f.subject.namespace, f.subject.name])).toEqual([
      ['Telemetry', 'istio-system', 'mesh-default'],
    ]);
    expect(out[0]?.severity).toBe('warning');
    expect(out[0]?.evidence.provider).toBe('lightstep');
  });

  it("reads the grid's bare mesh config file when it is given beside the objects", () => {
    const [meshConfig] = grid('telemetry-lightstep-meshconfig.yaml') as Record<string, unknown>[];
    const out = manifestFindings(grid('telemetry-lightstep.yaml'), {
      given: { meshConfig: meshConfig ?? null },
    }).findings.filter((f) => f.code === 'IST0002');
    expect(out.map((f) => [f.subject.name, f.evidence.provider])).toEqual([
      ['mesh-default', 'lightstep'],
    ]);
    // the given one is the mesh config: the ConfigMap's is not read then
    expect(
      manifestFindings([...grid('telemetry-lightstep.yaml'), GRID_MESH], {
        given: { meshConfig: { trustDomain: 'x' } },
      }).findings.filter((f) => f.code === 'IST0002'),
    ).toEqual([]);
  });

  it('judges providers by their type, not their name, once per provider and Telemetry', () => {
    const mesh = providers(
      { name: 'ls', lightstep: { service: 'ls.svc', port: 443 } },
      { name: 'lightstep', zipkin: { service: 'zipkin.svc', port: 9411 } },
      { name: 'envoy', lightstep: {} },
      { name: 'off', lightstep: null },
    );
    expect(
      found([
        mesh,
        tracing('both', ['ls', 'envoy'], ['ls']),
        tracing('zipkin', ['lightstep']),
        tracing('off', ['off']),
        tracing('none'),
      ]),
    ).toEqual(['shop/both: envoy', 'shop/both: ls']);
    const parts = lightstep([mesh, tracing('both', ['ls', 'envoy'])]).map((f) => f.part?.name);
    expect(parts.sort()).toEqual(['tracing.providers[envoy]', 'tracing.providers[ls]']);
  });

  it("reports nothing without a Lightstep provider: no ConfigMap, Istio's own, unreadable", () => {
    const t = tracing('t', ['lightstep'], ['envoy']);
    expect(found([t])).toEqual([]);
    for (const mesh of ['extensionProviders: [', 'extensionProviders: x', '- a', 3, '']) {
      expect(found([t, istio(mesh)])).toEqual([]);
    }
  });

  it('survives odd shapes', () => {
    const mesh = providers(
      { lightstep: {} },
      null,
      'x',
      { name: 7, lightstep: {} },
      {
        name: 'ls',
        lightstep: {},
      },
    );
    const odd = (spec: unknown) => ({ ...tracing('odd'), spec });
    const out = manifestFindings([
      mesh,
      odd('x'),
      odd({ tracing: 'x' }),
      odd({ tracing: [null, 'x', { providers: 'ls' }, { providers: [null, { name: 3 }] }] }),
    ]).findings;
    expect(out.filter((f) => f.code === 'MDX0003' || f.code === 'IST0002')).toEqual([]);
  });

  it('shares IST0002 with deprecation.FieldAnalyzer: one catalog entry, told apart by reftype', () => {
    expect(TELEMETRY_LIGHTSTEP.catalog.entries[0]).toBe(DEPRECATED_FIELDS.catalog.entries[0]);
    expect(ALL_CATALOG.filter((e) => e.code === 'IST0002')).toHaveLength(1);
    const [f] = lightstep([...grid('telemetry-lightstep.yaml'), GRID_MESH]);
    expect(f).toBeDefined();
    if (f !== undefined) expect(claimOf(f)?.analyzer).toBe('telemetry.LightstepAnalyzer');
    // a Telemetry finding of another reftype is no Lightstep one
    if (f !== undefined)
      expect(claimOf({ ...f, evidence: { reftype: 'deprecated field' } })).toBeUndefined();
  });
});
