import { describe, it, expect } from 'vitest';
import { intervalTableOf } from '../../lib/ledger/ledger-table';
import { mergeIntervals } from './merged-intervals';
import { parseMatrix } from '../../lib/metrics/prom-matrix';
import { intervalsFromKsm, readKsmIpIntervals, stepFor } from './pod-info';

const T = Date.parse('2026-10-01T10:00:00Z') / 1000;
const STEP = 15;

function matrix(result: { metric: Record<string, string>; values: [number, string][] }[]) {
  return { status: 'success', data: { resultType: 'matrix', result } };
}
const range = (from: number, to: number) =>
  Array.from(
    { length: (to - from) / STEP + 1 },
    (_, k) => [from + k * STEP, '1'] as [number, string],
  );

const oldPod = {
  namespace: 'shop',
  pod: 'payments-old',
  uid: 'u1',
  pod_ip: '10.0.0.5',
  node: 'n1',
  created_by_kind: 'ReplicaSet',
  created_by_name: 'payments-6f7c9',
};
const newPod = { ...oldPod, pod: 'payments-new', uid: 'u2', created_by_name: 'payments-8d2b1' };

describe('kube-state-metrics pod history', () => {
  const info = matrix([
    { metric: oldPod, values: range(T, T + 600) },
    { metric: newPod, values: range(T + 900, T + 1800) },
    {
      metric: { namespace: 'shop', pod: 'pending', uid: 'u3', pod_ip: '' },
      values: range(T, T + 30),
    },
  ]);
  const created = matrix([
    { metric: { namespace: 'shop', pod: 'payments-old', uid: 'u1' }, values: [[T, String(T - 5)]] },
  ]);
  const deletion = matrix([
    {
      metric: { namespace: 'shop', pod: 'payments-old', uid: 'u1' },
      values: range(T + 570, T + 600).map(([t]) => [t, String(T + 600)] as [number, string]),
    },
  ]);

  it('turns series into intervals: IP reuse separated by time, the live one open', () => {
    const r = intervalsFromKsm(
      parseMatrix(info).series,
      parseMatrix(created).series,
      parseMatrix(deletion).series,
      {
        endMs: (T + 1800) * 1000,
        stepMs: STEP * 1000,
      },
    );
    expect(r.skipped).toBe(1);
    expect(r.intervals).toHaveLength(2);
    const [o, n] = r.intervals;
    expect(o).toMatchObject({
      name: 'payments-old',
      from: (T - 5) * 1000,
      deletionStartedAt: (T + 570) * 1000,
      graceEndsAt: (T + 600) * 1000,
      goneAt: (T + 615) * 1000,
      owner: { kind: 'ReplicaSet', name: 'payments-6f7c9' },
    });
    expect(n).toMatchObject({ name: 'payments-new', from: (T + 900) * 1000, goneAt: null });
    const h = intervalTableOf(r.intervals);
    expect(h.at('10.0.0.5', (T + 610) * 1000)).toMatchObject({
      state: 'terminating',
      holder: { name: 'payments-old' },
    });
    expect(h.at('10.0.0.5', (T + 700) * 1000)).toMatchObject({
      state: 'terminated',
      holder: { name: 'payments-old' },
    });
    expect(h.at('10.0.0.5', (T + 1000) * 1000)).toMatchObject({
      state: 'live',
      holder: { name: 'payments-new' },
    });
    // meshdx's own interval for the new pod wins over the metric one
    const own = { ...(n as NonNullable<typeof n>), from: (T + 905) * 1000 };
    const merged = mergeIntervals([own], r.intervals);
    expect(merged).toHaveLength(2);
    expect(merged.find((i) => i.name === 'payments-new')?.from).toBe((T + 905) * 1000);
  });

  it('reports errors as data and queries the range API', async () => {
    expect(parseMatrix({ status: 'error', error: 'bad query' }).error).toMatch(/bad query/);
    expect(parseMatrix('nope').error).toMatch(/not a query result/);
    expect(stepFor({ startMs: 0, endMs: 3_600_000 })).toBe(15_000);
    expect(stepFor({ startMs: 0, endMs: 7 * 86_400_000 })).toBe(615_000);
    const asked: string[] = [];
    const fake = (async (url: URL | RequestInfo) => {
      const u = new URL(String(url));
      asked.push(u.searchParams.get('query') ?? '');
      const body = u.searchParams.get('query')?.startsWith('kube_pod_info') ? info : matrix([]);
      return new Response(JSON.stringify(body));
    }) as typeof fetch;
    const r = await readKsmIpIntervals(
      'http://prom:9090',
      { startMs: T * 1000, endMs: (T + 1800) * 1000 },
      1000,
      fake,
    );
    expect(r.error).toBeNull();
    expect(r.intervals).toHaveLength(2);
    expect(asked.sort()).toEqual([
      'kube_pod_created',
      'kube_pod_deletion_timestamp',
      'kube_pod_info{pod_ip!=""}',
    ]);
    const down = (async () => {
      throw new Error('ECONNREFUSED');
    }) as typeof fetch;
    expect(
      (await readKsmIpIntervals('http://prom:9090', { startMs: 0, endMs: 1 }, 1000, down)).error,
    ).toMatch(/not reachable/);
  });
});
