import fs from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../test-support/fixtures';
import { manifestFindings } from '../manifest';
import { objectKey } from '../../refs/object-ref';

const CODES = new Set(['IST0151', 'IST0152', 'IST0153', 'IST0154', 'IST0155']);
const docs = (text: string): unknown[] => parseAllDocuments(text).map((d) => d.toJS() as unknown);
const grid = (file: string) => docs(readFixture('istio_config', 'analyzer', file));
const upstream = (file: string) =>
  docs(
    fs.readFileSync(
      path.resolve(import.meta.dirname, '../../../tests/data/istio-analyzer', file),
      'utf8',
    ),
  );
const all = (objects: unknown[]) => manifestFindings(objects).findings;
const found = (objects: unknown[]) =>
  all(objects)
    .filter((f) => CODES.has(f.code))
    .map((f) => `${f.code} ${objectKey(f.subject.namespace ?? '-', f.subject.name)}`)
    .sort();

const ef = (name: string, configPatches: unknown, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'networking.istio.io/v1alpha3',
  kind: 'EnvoyFilter',
  metadata: { name, namespace: 'shop' },
  spec: { configPatches, ...extra },
});
const patch = (
  applyTo: unknown,
  operation: unknown,
  opts: { name?: string; chain?: string; proxyVersion?: string; value?: unknown } = {},
) => ({
  applyTo,
  match: {
    ...(opts.proxyVersion === undefined ? {} : { proxy: { proxyVersion: opts.proxyVersion } }),
    ...(opts.chain === undefined
      ? {}
      : { listener: { filterChain: { filter: { name: opts.chain } } } }),
  },
  patch: {
    operation,
    ...(opts.value !== undefined
      ? { value: opts.value }
      : opts.name === undefined
        ? {}
        : { value: { name: opts.name } }),
  },
});

describe('IST0151-IST0155 (envoyfilter.EnvoyPatchAnalyzer)', () => {
  it("reports istioctl's grid files as istioctl does", () => {
    expect(found(grid('relative-envoy-filter-operation.yaml'))).toEqual([
      'IST0151 bookinfo/test-relative-1',
      'IST0151 bookinfo/test-relative-2',
      'IST0151 bookinfo/test-relative-3',
      'IST0155 bookinfo/test-relative-3',
    ]);
    expect(found(grid('envoy-filter-filterchain.yaml'))).toEqual([]);
    expect(found(grid('absolute-envoy-filter-operation.yaml'))).toEqual([]);
    expect(found(grid('envoy-filter-add-operation.yaml'))).toEqual([
      'IST0153 bookinfo/test-auth-2',
      'IST0153 bookinfo/test-auth-3',
    ]);
    expect(found(grid('envoy-filter-remove-operation.yaml'))).toEqual([
      'IST0151 bookinfo/test-remove-1',
      'IST0151 bookinfo/test-remove-5',
      'IST0154 bookinfo/test-remove-2',
      'IST0154 bookinfo/test-remove-3',
    ]);
  });

  it("reports upstream's REPLACE case: one finding per filter and code, priority aside for IST0152", () => {
    const f = all(upstream('envoy-filter-replace-operation.yaml')).filter((x) => CODES.has(x.code));
    expect(f.map((x) => `${x.code} ${x.subject.name}`).sort()).toEqual([
      'IST0151 test-replace-3',
      'IST0152 test-replace-1',
      'IST0155 test-replace-3',
    ]);
    // test-replace-3's patches 0, 2 and 3 are IST0151 (patch 1 repeats patch 0's versioned
    // name): said once, naming them all
    expect(f.find((x) => x.code === 'IST0151')?.evidence.patches).toBe(
      'configPatches[0] REPLACE HTTP_FILTER, configPatches[2] REPLACE NETWORK_FILTER, configPatches[3] REPLACE VIRTUAL_HOST',
    );
    expect(f.find((x) => x.code === 'IST0155')?.evidence.patches).toBe(
      'configPatches[1] REPLACE HTTP_FILTER',
    );
    expect(f.find((x) => x.code === 'IST0152')?.severity).toBe('error');
  });

  it('leaves relative operations alone when a priority is set, in any form protobuf reads', () => {
    for (const priority of [10, '10', -1, '-5']) {
      expect(found([ef('p', [patch('HTTP_FILTER', 'INSERT_BEFORE')], { priority })])).toEqual([]);
    }
    expect(found([ef('p', [patch('HTTP_FILTER', 'INSERT_AFTER')], { priority: 0 })])).toEqual([
      'IST0151 shop/p',
    ]);
    // ADD, MERGE and INSERT_FIRST are absolute: nothing, priority or not
    expect(
      found([
        ef('abs', [
          patch('HTTP_FILTER', 'ADD'),
          patch('CLUSTER', 'MERGE'),
          patch('HTTP_FILTER', 'INSERT_FIRST'),
        ]),
      ]),
    ).toEqual([]);
  });

  it('reads enum numbers as protobuf does, and judges no filter istioctl could not read', () => {
    // 4 = INSERT_BEFORE, 2 = ADD on 5 = ROUTE_CONFIGURATION, 7 = REPLACE on 8 = CLUSTER
    expect(
      found([ef('n1', [patch(4, 4)]), ef('n2', [patch(5, 2)]), ef('n3', [patch(8, 7)])]),
    ).toEqual(['IST0151 shop/n1', 'IST0152 shop/n3', 'IST0153 shop/n2']);
    const unreadable = [
      ef('bad-op', [patch('HTTP_ROUTE', 'DELETE')]),
      ef('bad-apply', [patch('ROUTES', 'ADD')]),
      ef('bad-priority', [patch('HTTP_FILTER', 'INSERT_BEFORE')], { priority: 'high' }),
      ef('bad-priority2', [patch('HTTP_FILTER', 'INSERT_BEFORE')], { priority: 1.5 }),
      ef('bad-value', [patch('HTTP_FILTER', 'INSERT_BEFORE', { value: 'x' })]),
      ef('bad-version', [
        { ...patch('HTTP_FILTER', 'REMOVE'), match: { proxy: { proxyVersion: 1 } } },
      ]),
      // an unreadable entry after a good one: istioctl reads the filter whole or not at all
      ef('bad-later', [patch('HTTP_ROUTE', 'ADD'), 'nope']),
      ef('bad-list', { applyTo: 'HTTP_ROUTE' }),
    ];
    expect(found(unreadable)).toEqual([]);
    expect(all(unreadable).filter((f) => f.code === 'MDX0003')).toEqual([]);
  });

  it('stops at the first patch without a patch section, as istioctl does', () => {
    expect(
      found([
        ef('stop', [
          patch('HTTP_ROUTE', 'ADD'),
          { applyTo: 'NETWORK_FILTER', match: null, patch: null },
          patch('HTTP_ROUTE', 'REMOVE'),
        ]),
      ]),
    ).toEqual(['IST0153 shop/stop']);
  });

  it('says IST0155 when an earlier patch matched the same filter name by proxyVersion', () => {
    const versioned = patch('HTTP_FILTER', 'ADD', { name: 'envoy.lua', proxyVersion: '^1\\.2.*' });
    const relative = patch('HTTP_FILTER', 'INSERT_BEFORE', { name: 'envoy.lua' });
    // across filters, in the order they are read (istioctl's own order is unspecified)
    expect(found([ef('a', [versioned]), ef('b', [relative])])).toEqual(['IST0155 shop/b']);
    expect(found([ef('b', [relative]), ef('a', [versioned])])).toEqual(['IST0151 shop/b']);
    // a patch's own proxyVersion counts only for the patches after it
    expect(
      found([
        ef('self', [
          patch('HTTP_FILTER', 'INSERT_AFTER', { name: 'x', proxyVersion: '1' }),
          patch('CLUSTER', 'INSERT_AFTER', { name: 'x' }),
        ]),
      ]),
    ).toEqual(['IST0151 shop/self', 'IST0155 shop/self']);
    // another name, or an empty proxyVersion: IST0151
    expect(
      found([
        ef('c', [patch('HTTP_FILTER', 'ADD', { name: 'y', proxyVersion: '1' })]),
        ef('d', [patch('HTTP_FILTER', 'ADD', { name: 'envoy.lua', proxyVersion: '' })]),
        ef('e', [relative]),
      ]),
    ).toEqual(['IST0151 shop/e']);
  });

  it("takes the filter chain's filter name when the value has none, and compares names as values", () => {
    const versioned = patch('HTTP_FILTER', 'ADD', {
      value: { typed_config: {} },
      chain: 'envoy.hcm',
      proxyVersion: '1',
    });
    expect(
      found([
        ef('a', [versioned]),
        ef('b', [patch('NETWORK_FILTER', 'REMOVE', { chain: 'envoy.hcm', value: {} })]),
      ]),
    ).toEqual(['IST0155 shop/b']);
    // a value named like a chain's filter is not the same name; nor is the number 1 the string '1'
    expect(
      found([
        ef('a', [versioned]),
        ef('b', [patch('HTTP_FILTER', 'INSERT_BEFORE', { name: 'envoy.hcm' })]),
        ef('c', [patch('HTTP_FILTER', 'ADD', { value: { name: 1 }, proxyVersion: '1' })]),
        ef('d', [patch('HTTP_FILTER', 'INSERT_BEFORE', { name: '1' })]),
      ]),
    ).toEqual(['IST0151 shop/b', 'IST0151 shop/d']);
    // patches without a value share the empty name, as istioctl's do
    expect(
      found([
        ef('a', [patch('NETWORK_FILTER', 'MERGE', { proxyVersion: '1', chain: 'x' })]),
        ef('b', [patch('NETWORK_FILTER', 'REMOVE', { chain: 'y' })]),
      ]),
    ).toEqual(['IST0155 shop/b']);
  });

  it('survives filters of odd shapes', () => {
    const odd = [
      { kind: 'EnvoyFilter', metadata: { name: 'nospec', namespace: 'x' } },
      { kind: 'EnvoyFilter', metadata: { name: 'str', namespace: 'x' }, spec: 'x' },
      ef('empty', []),
      ef('null', null),
      ef('nulls', [null]),
      ef('match', [{ applyTo: 'HTTP_FILTER', match: 'x', patch: { operation: 'REMOVE' } }]),
      ef('proxy', [
        { applyTo: 'HTTP_FILTER', match: { proxy: 'x' }, patch: { operation: 'REMOVE' } },
      ]),
    ];
    expect(found(odd)).toEqual([]);
    expect(all(odd).filter((f) => f.code === 'MDX0003')).toEqual([]);
  });
});
