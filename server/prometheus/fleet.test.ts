import { describe, expect, it } from 'vitest';
import type { PromFleet } from '../../lib/proxies/prom-fleet';
import { FLEET_QUERIES, promOutcome, readPromFleet } from './fleet';
import { parseMatrix } from '../../lib/metrics/prom-matrix';

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

type Rows = [Record<string, string>, string][];

/**
 * A Prometheus that answers each instant query from `answers` (by its text) and refuses any
 * other as Prometheus refuses a bad query; `asked` keeps every request's query and time.
 */
function fakeProm(answers: Map<string, Rows>, clockS?: number) {
  const asked: { query: string; time: string | null }[] = [];
  const fetchImpl = (async (input: string | URL | Request) => {
    const url = new URL(String(input));
    const query = url.searchParams.get('query') ?? '';
    asked.push({ query, time: url.searchParams.get('time') });
    if (query === 'vector(time())' && clockS !== undefined)
      return new Response(JSON.stringify(vec([[{}, String(clockS)]], clockS)));
    const rows = answers.get(query);
    return rows
      ? new Response(JSON.stringify(vec(rows)))
      : new Response(JSON.stringify({ status: 'error', error: `unexpected query ${query}` }), {
          status: 400,
        });
  }) as typeof fetch;
  return { client: { baseUrl: 'http://prom.test', timeoutMs: 1_000, fetchImpl }, asked };
}

const WARMING = 'envoy_cluster_manager_warming_clusters';
const coverage = (active: number, warming = active, state = active, version = active) =>
  (
    [
      ['activeClusters', active],
      ['warmingClusters', warming],
      ['state', state],
      ['version', version],
    ] as const
  ).map(([figure, n]): [Record<string, string>, string] => [{ figure }, String(n)]);

/** Two proxies (a, b), a sample time for c and one series without labels; `over` replaces answers. */
function answers(over: Partial<Record<string, Rows>> = {}): Map<string, Rows> {
  const pa = { namespace: 'shop', pod: 'a' };
  const pb = { namespace: 'shop', pod: 'b' };
  const m = new Map<string, Rows>([
    [
      FLEET_QUERIES.activeClusters,
      [
        [pa, '120'],
        [pb, '80'],
        [{ pod: 'orphan' }, '3'],
      ],
    ],
    [
      FLEET_QUERIES.listeners,
      [
        [pa, '25'],
        [pb, '20'],
      ],
    ],
    [
      FLEET_QUERIES.memory,
      [
        [pa, '24094720'],
        [pb, '20000000'],
      ],
    ],
    [
      FLEET_QUERIES.sampledAt,
      [
        [pa, '1700000000'],
        [pb, '1699999000'],
        [{ namespace: 'shop', pod: 'c' }, '1700000000'],
      ],
    ],
    [`${WARMING} != 0`, []],
    ['envoy_server_state != 0', []],
    ['count by (tag) (istio_build{component="proxy"})', [[{ tag: '1.24.2' }, '2']]],
    [COVERAGE, coverage(2)],
  ]);
  for (const [q, rows] of Object.entries(over)) if (rows) m.set(q, rows);
  return m;
}

const COVERAGE = [
  ['activeClusters', 'envoy_cluster_manager_active_clusters'],
  ['warmingClusters', WARMING],
  ['state', 'envoy_server_state'],
  ['version', 'istio_build{component="proxy"}'],
]
  .map(([f, series]) => `label_replace(count(${series}), "figure", "${f}", "", "")`)
  .join(' or ');

describe('the fleet from Prometheus', () => {
  const NOW = 1_700_000_030_000;

  it('asks for the exceptions only when every proxy has the series, all at one instant', async () => {
    const { client, asked } = fakeProm(answers());
    const fleet = await readPromFleet(client, NOW);
    expect(fleet.error).toBeNull();
    expect(fleet.unlabelled).toBe(1);
    expect(asked).toHaveLength(8);
    expect(new Set(asked.map((a) => a.time))).toEqual(new Set(['1700000030.000']));
    expect(fleet.queries).toEqual(asked.map((a) => a.query));
    expect(fleet.byPod.get('shop/a')?.stats).toEqual({
      activeClusters: 120,
      warmingClusters: 0,
      listenersActive: 25,
      memoryAllocatedBytes: 24094720,
      serverState: { value: 0, name: 'LIVE' },
      initializationTimeMs: null,
      istioVersion: '1.24.2',
      implausible: [],
    });
    // c has a sample time and no figures: nothing is made up for it
    expect(fleet.byPod.get('shop/c')?.stats).toMatchObject({
      activeClusters: null,
      warmingClusters: null,
      serverState: null,
      istioVersion: null,
    });
  });

  it('takes the exceptions an answer names, and never makes a usual value of NaN', async () => {
    const { client } = fakeProm(
      answers({
        [`${WARMING} != 0`]: [[{ namespace: 'shop', pod: 'b' }, '4']],
        ['envoy_server_state != 0']: [
          [{ namespace: 'shop', pod: 'a' }, '1'],
          [{ namespace: 'shop', pod: 'b' }, 'NaN'],
        ],
      }),
    );
    const fleet = await readPromFleet(client, NOW);
    expect(fleet.byPod.get('shop/a')?.stats).toMatchObject({
      warmingClusters: 0,
      serverState: { value: 1, name: 'DRAINING' },
    });
    expect(fleet.byPod.get('shop/b')?.stats).toMatchObject({
      warmingClusters: 4,
      serverState: null,
      // not dropped silently: the raw value is kept for the view
      implausible: [{ figure: 'envoy_server_state', raw: 'NaN' }],
    });
  });

  it('takes no impossible figure from Prometheus as a fact: the proxy is unknown, raw shown', async () => {
    const { client } = fakeProm(
      answers({
        [FLEET_QUERIES.activeClusters]: [
          [{ namespace: 'shop', pod: 'a' }, '-5'],
          [{ namespace: 'shop', pod: 'b' }, '99999999999999999999999'],
        ],
        [FLEET_QUERIES.listeners]: [[{ namespace: 'shop', pod: 'b' }, '1.5']],
        [FLEET_QUERIES.memory]: [[{ namespace: 'shop', pod: 'a' }, '1e308']],
      }),
    );
    const fleet = await readPromFleet(client, NOW);
    const a = promOutcome(fleet, 'shop', 'a', 3_600_000);
    const b = promOutcome(fleet, 'shop', 'b', 3_600_000);
    expect(a.ok && [a.stats.activeClusters, a.stats.memoryAllocatedBytes]).toEqual([null, null]);
    expect(a.ok && a.stats.implausible.map((i) => i.raw)).toEqual(['-5', '1e+308']);
    expect(b.ok && [b.stats.activeClusters, b.stats.listenersActive]).toEqual([null, null]);
    expect(b.ok && b.stats.implausible.map((i) => i.raw)).toEqual(['1e+23', '1.5']);
  });

  it('asks for a whole figure when some proxy lacks its series: that proxy stays unknown', async () => {
    const full = `max by (namespace, pod) (${WARMING})`;
    const { client, asked } = fakeProm(
      answers({ [COVERAGE]: coverage(2, 1), [full]: [[{ namespace: 'shop', pod: 'a' }, '0']] }),
    );
    const fleet = await readPromFleet(client, NOW);
    expect(asked.map((a) => a.query)).toContain(full);
    expect(fleet.byPod.get('shop/a')?.stats.warmingClusters).toBe(0);
    expect(fleet.byPod.get('shop/b')?.stats.warmingClusters).toBeNull();
    expect(fleet.byPod.get('shop/b')?.stats.serverState).toEqual({ value: 0, name: 'LIVE' });
  });

  it('asks for the proxies off the usual version, and for all when one runs two', async () => {
    const minority = 'istio_build{component="proxy",tag!="1.24.2"}';
    const versions = 'count by (tag) (istio_build{component="proxy"})';
    const canary = fakeProm(
      answers({
        [versions]: [
          [{ tag: '1.24.2' }, '1'],
          [{ tag: '1.25.0' }, '1'],
        ],
        [minority]: [[{ namespace: 'shop', pod: 'b', tag: '1.25.0' }, '1']],
      }),
    );
    const fleet = await readPromFleet(canary.client, NOW);
    expect(fleet.error).toBeNull();
    expect(canary.asked.map((a) => a.query)).toContain(minority);
    expect(fleet.byPod.get('shop/a')?.stats.istioVersion).toBe('1.24.2');
    expect(fleet.byPod.get('shop/b')?.stats.istioVersion).toBe('1.25.0');

    // three version series for two proxies' two active-clusters series: one proxy reports two
    // versions, so no version is assumed
    const full = 'max by (namespace, pod, tag) (istio_build{component="proxy"})';
    const twice = fakeProm(
      answers({
        [COVERAGE]: coverage(2, 2, 2, 3),
        [versions]: [
          [{ tag: '1.24.2' }, '2'],
          [{ tag: '1.25.0' }, '1'],
        ],
        [full]: [[{ namespace: 'shop', pod: 'a', tag: '1.24.2' }, '1']],
      }),
    );
    const both = await readPromFleet(twice.client, NOW);
    expect(twice.asked.map((a) => a.query)).toContain(full);
    expect(both.byPod.get('shop/a')?.stats.istioVersion).toBe('1.24.2');
    expect(both.byPod.get('shop/b')?.stats.istioVersion).toBeNull();
  });

  it("evaluates at Prometheus's own time when none is given, and ages samples from it", async () => {
    // Prometheus's clock reads 2023, 30 s after the samples; this machine's reads years later
    const { client, asked } = fakeProm(answers(), 1_700_000_030);
    const fleet = await readPromFleet(client);
    expect(asked[0]).toEqual({ query: 'vector(time())', time: null });
    expect(new Set(asked.slice(1).map((a) => a.time))).toEqual(new Set(['1700000030.000']));
    expect(fleet.queries[0]).toBe('vector(time())');
    expect(fleet.atMs).toBe(1_700_000_030_000);
    expect(promOutcome(fleet, 'shop', 'a', 60_000)).toMatchObject({ ok: true });
    // a Prometheus that cannot tell its time gives no fleet
    const mute = await readPromFleet(fakeProm(answers()).client);
    expect(mute.error).toMatch(/unexpected query vector\(time\(\)\)/);
    expect(mute.byPod.size).toBe(0);
  });

  it('one failed answer fails the whole fleet: never a partial one', async () => {
    const m = answers();
    m.delete(FLEET_QUERIES.memory);
    const fleet = await readPromFleet(fakeProm(m).client, NOW);
    expect(fleet.error).toMatch(/unexpected query/);
    expect(fleet.byPod.size).toBe(0);
  });

  it('a proxy with numbers is ok, one without its gauge or with an old sample is unknown', async () => {
    const fleet: PromFleet = await readPromFleet(fakeProm(answers()).client, NOW);
    const a = promOutcome(fleet, 'shop', 'a', 3_600_000);
    expect(a).toMatchObject({
      ok: true,
      source: 'prometheus',
      sampledAt: '2023-11-14T22:13:20.000Z',
    });
    // c has a timestamp but no active-clusters value: unknown, never 0
    expect(promOutcome(fleet, 'shop', 'c', 60_000)).toMatchObject({
      ok: false,
      status: 'unknown',
    });
    expect(promOutcome(fleet, 'shop', 'gone', 60_000)).toMatchObject({
      ok: false,
      status: 'unknown',
    });
    // the same samples read two minutes later: a's is then too old
    const later = await readPromFleet(fakeProm(answers()).client, NOW + 120_000);
    expect(promOutcome(later, 'shop', 'a', 60_000)).toMatchObject({
      ok: false,
      status: 'unknown',
      reason: expect.stringMatching(/150 s old/),
    });
  });
});
