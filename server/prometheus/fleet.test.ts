import { describe, expect, it } from 'vitest';
import { mergeFleetSeries, promOutcome, type PromFleet } from './fleet';
import { parseMatrix } from './query';

const vec = (rows: [Record<string, string>, string][], t = 1_700_000_000) => ({
  status: 'success',
  data: { resultType: 'vector', result: rows.map(([metric, v]) => ({ metric, value: [t, v] })) },
});

const series = (rows: [Record<string, string>, string][]) => parseMatrix(vec(rows)).series;

describe('parseMatrix', () => {
  it('reads vectors and matrices and refuses what is not a query result', () => {
    expect(series([[{ pod: 'a' }, '42']])).toEqual([
      { metric: { pod: 'a' }, samples: [[1_700_000_000_000, 42]] },
    ]);
    expect(parseMatrix({ status: 'error', error: 'bad query' }).error).toMatch(/bad query/);
    expect(
      parseMatrix({ status: 'success', data: { resultType: 'scalar', result: [] } }).error,
    ).toMatch(/scalar/);
    expect(
      parseMatrix({
        status: 'success',
        data: { resultType: 'vector', result: [{ metric: { a: 1 } }] },
      }).error,
    ).toMatch(/not a query result/);
    expect(parseMatrix('nope').error).toMatch(/not a query result/);
  });
});

describe('the fleet from Prometheus', () => {
  const pa = { namespace: 'shop', pod: 'a' };
  const pb = { namespace: 'shop', pod: 'b' };
  const merged = mergeFleetSeries({
    activeClusters: series([
      [pa, '120'],
      [{ pod: 'orphan' }, '3'],
    ]),
    warmingClusters: series([[pa, '0']]),
    listeners: series([[pa, '25']]),
    memory: series([[pa, '24094720']]),
    state: series([[pa, '0']]),
    version: series([[{ ...pa, tag: '1.24.2' }, '1']]),
    sampledAt: series([
      [pa, '1700000000'],
      [pb, '1699999000'],
    ]),
  });
  const fleet: PromFleet = { ...merged, error: null, queries: [] };

  it('merges the queries into one sample per proxy and counts unlabelled series', () => {
    expect(merged.unlabelled).toBe(1);
    expect(merged.byPod.get('shop/a')?.stats).toMatchObject({
      activeClusters: 120,
      warmingClusters: 0,
      listenersActive: 25,
      memoryAllocatedBytes: 24094720,
      serverState: { value: 0, name: 'LIVE' },
      istioVersion: '1.24.2',
    });
  });

  it('a proxy with numbers is ok, one without its gauge or with an old sample is unknown', () => {
    const now = 1_700_000_030_000;
    const a = promOutcome(fleet, 'shop', 'a', now, 60_000);
    expect(a).toMatchObject({
      ok: true,
      source: 'prometheus',
      sampledAt: '2023-11-14T22:13:20.000Z',
    });
    // b has a timestamp but no active-clusters value: unknown, never 0
    expect(promOutcome(fleet, 'shop', 'b', now, 60_000)).toMatchObject({
      ok: false,
      status: 'unknown',
    });
    expect(promOutcome(fleet, 'shop', 'gone', now, 60_000)).toMatchObject({
      ok: false,
      status: 'unknown',
    });
    expect(promOutcome(fleet, 'shop', 'a', now + 120_000, 60_000)).toMatchObject({
      ok: false,
      status: 'unknown',
      reason: expect.stringMatching(/150 s old/),
    });
  });
});
