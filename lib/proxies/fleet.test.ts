import { describe, expect, it } from 'vitest';
import type { ApiBudget } from '../api/budget';
import { FleetViewSchema } from '../api/proxies';
import { checkEnvoyProxyStats, type EnvoyProxyStats } from '../metrics/envoy-stats';
import { buildFleet } from './fleet';
import { knownStaticCount } from './static-set';
import type { ProxyTarget, ScrapeOutcome } from './types';

function target(ns: string, name: string, extra: Partial<ProxyTarget> = {}): ProxyTarget {
  return {
    namespace: ns,
    name,
    workload: name.replace(/-\d+$/, ''),
    workloadKind: 'Deployment',
    placement: 'sidecar',
    podIP: '10.0.0.1',
    notRunning: null,
    sidecar: null,
    imageVersion: '1.23.1',
    ...extra,
  };
}

function ok(active: number, extra: Partial<EnvoyProxyStats> = {}): ScrapeOutcome {
  return {
    ok: true,
    errors: 0,
    stats: {
      activeClusters: active,
      warmingClusters: 0,
      listenersActive: 10,
      memoryAllocatedBytes: 1000,
      serverState: { value: 0, name: 'LIVE' },
      initializationTimeMs: null,
      istioVersion: '1.24.0',
      implausible: [],
      ...extra,
    },
  };
}

const API: ApiBudget = {
  qps: 20,
  burst: 40,
  proxyConcurrency: 32,
  requests: { list: 0, get: 0, watch: 0, proxy: 0, portforward: 0, log: 0, other: 0 },
  throttledWaits: 0,
  throttledMs: 0,
  slotWaits: 0,
  tooManyRequests: 0,
  retryAfterMs: 0,
  retries: 0,
  inFlightProxy: 0,
  peakInFlightProxy: 0,
  recentQps: 0,
  peakQps: 0,
  since: '2026-01-01T00:00:00.000Z',
};

const scoped = { namespace: 'b', name: 'default', source: 'namespace' as const };

/** The fleet view of these proxies and their scrapes, as the API answers it. */
function fleetOf(targets: ProxyTarget[], outcomes: (ScrapeOutcome | null)[]) {
  return FleetViewSchema.parse(
    buildFleet({
      targets,
      outcomes,
      sync: null,
      scannedAt: new Date('2026-01-01T00:00:00Z'),
      durationMs: 12.4,
      concurrency: 4,
      timeoutMs: 1000,
      deadlineMs: 5000,
      source: {
        kind: 'scrape',
        prometheus: null,
        queries: [],
        oldestSampleAt: null,
        newestSampleAt: null,
        note: null,
      },
      api: API,
    }),
  );
}

describe('buildFleet', () => {
  const targets = [
    target('a', 'web-1'),
    target('a', 'web-2'),
    target('b', 'api-1', { sidecar: scoped }),
    target('b', 'api-2', { sidecar: scoped }),
    target('b', 'dead-1', { sidecar: scoped }),
    target('c', 'pending-1', { notRunning: 'pod has no IP yet (phase Pending)' }),
    target('c', 'gw-1', { placement: 'gateway', sidecar: scoped }),
  ];
  const outcomes: (ScrapeOutcome | null)[] = [
    ok(300),
    ok(310),
    ok(40),
    ok(45),
    { ok: false, reason: 'timeout: no answer' },
    null,
    ok(0, { activeClusters: null }),
  ];
  const fleet = fleetOf(targets, outcomes);

  it('never shows an unreachable proxy as 0 clusters', () => {
    const dead = fleet.rows.find((r) => r.key === 'b/dead-1');
    expect(dead).toMatchObject({
      status: 'unreachable',
      activeClusters: null,
      reason: 'timeout: no answer',
    });
    // it answered, without the gauge: unknown (not unreachable, not 0)
    const gw = fleet.rows.find((r) => r.key === 'c/gw-1');
    expect(gw?.status).toBe('unknown');
    expect(gw?.reason).toMatch(/active_clusters/);
    const pending = fleet.rows.find((r) => r.key === 'c/pending-1');
    expect(pending).toMatchObject({ status: 'not-running', activeClusters: null });
  });

  it('totals the push volume over answering proxies only', () => {
    expect(fleet.totals).toMatchObject({
      proxies: 7,
      reachable: 4,
      unreachable: 1,
      unknown: 1,
      notRunning: 1,
      // the two running proxies without figures are counted as unknown, not as 0
      clusters: { value: 300 + 310 + 40 + 45, known: 4, unknown: 2 },
      listeners: { value: 40, known: 4, unknown: 2 },
      memoryBytes: { value: 4000, known: 4, unknown: 2 },
      unscopedProxies: 3,
    });
    const k = knownStaticCount('sidecar');
    expect(fleet.totals.serviceClustersEstimate.value).toBe(300 + 310 + 40 + 45 - 4 * k);
    expect(fleet.rows.find((r) => r.key === 'a/web-1')?.serviceClustersEstimate).toBe(300 - k);
  });

  it('ranks unscoped and heavy proxies first, unreadable ones last', () => {
    expect(fleet.rows.map((r) => r.key)).toEqual([
      'a/web-2',
      'a/web-1',
      'b/api-2',
      'b/api-1',
      'c/gw-1',
      'b/dead-1',
      'c/pending-1',
    ]);
  });

  it('puts unscoped namespaces first and sums workloads', () => {
    expect(fleet.namespaces.map((n) => [n.namespace, n.unscoped])).toEqual([
      ['a', true],
      ['c', true],
      ['b', false],
    ]);
    expect(fleet.namespaces[0]).toMatchObject({
      proxies: 2,
      reachable: 2,
      clusters: 610,
      maxClusters: 310,
    });
    expect(fleet.topWorkloads[0]).toMatchObject({
      namespace: 'a',
      workload: 'web',
      proxies: 2,
      counted: 2,
      clusters: 610,
      unscoped: true,
    });
    expect(fleet.distribution.reduce((a, b) => a + b.count, 0)).toBe(4);
    expect(fleet.sync.available).toBe(false);
    expect(fleet.durationMs).toBe(12);
    expect(fleet.rows.find((r) => r.key === 'c/pending-1')?.istioVersion).toBe('1.23.1');
    expect(fleet.rows.find((r) => r.key === 'a/web-1')?.istioVersion).toBe('1.24.0');
  });

  it("says when a workload's cluster sum leaves out proxies that were not read", () => {
    const partial = fleetOf(
      [target('d', 'svc-1'), target('d', 'svc-2'), target('d', 'svc-3'), target('d', 'one-1')],
      [ok(100), { ok: false, reason: 'timeout: no answer' }, ok(120), ok(90)],
    );
    expect(partial.topWorkloads.map((w) => [w.workload, w.proxies, w.counted, w.clusters])).toEqual(
      [
        ['svc', 3, 2, 220],
        ['one', 1, 1, 90],
      ],
    );
  });

  it('counts no gateway or waypoint as unscoped: no Sidecar resource applies to them', () => {
    const mixed = fleetOf(
      [
        target('e', 'gw-1', { placement: 'gateway' }),
        target('e', 'wp-1', { placement: 'waypoint' }),
        target('e', 'app-1'),
        target('f', 'gw-2', { placement: 'gateway' }),
      ],
      [ok(900), ok(20), ok(100), ok(900)],
    );
    expect(mixed.totals.unscopedProxies).toBe(1);
    expect(mixed.namespaces.map((n) => [n.namespace, n.unscoped, n.unscopedProxies])).toEqual([
      ['e', true, 1],
      ['f', false, 0],
    ]);
    expect(mixed.topWorkloads.find((w) => w.workload === 'gw')?.unscoped).toBe(false);
  });

  it('takes no impossible gauge as a fact: not ok, not ranked first, not in the totals', () => {
    const stats = (clusters: number, listeners: number, memory: number): ScrapeOutcome => {
      const o = ok(clusters, { listenersActive: listeners, memoryAllocatedBytes: memory });
      return o.ok ? { ...o, stats: checkEnvoyProxyStats(o.stats) } : o;
    };
    const f = fleetOf(
      [target('g', 'neg-1'), target('g', 'huge-1'), target('g', 'fine-1')],
      [stats(-5, 10, 1e308), stats(99999999999999999999999, 1.5, 1000), stats(120, 12, 2048)],
    );
    expect(f.rows.map((r) => [r.key, r.status])).toEqual([
      ['g/fine-1', 'ok'],
      ['g/huge-1', 'unknown'],
      ['g/neg-1', 'unknown'],
    ]);
    const neg = f.rows.find((r) => r.key === 'g/neg-1');
    expect(neg?.reason).toMatch(/^implausible envoy_cluster_manager_active_clusters -5: /);
    expect(neg?.activeClusters).toBeNull();
    expect(neg?.implausible.map((i) => i.raw)).toEqual(['-5', '1e+308']);
    const huge = f.rows.find((r) => r.key === 'g/huge-1');
    expect(huge?.implausible.map((i) => i.raw)).toEqual(['1e+23', '1.5']);
    expect(f.totals).toMatchObject({
      reachable: 1,
      unknown: 2,
      clusters: { value: 120, known: 1, unknown: 2 },
      listeners: { value: 12, known: 1, unknown: 2 },
      memoryBytes: { value: 2048, known: 1, unknown: 2 },
    });
    expect(f.distribution.reduce((a, b) => a + b.count, 0)).toBe(1);
    // a workload none of whose proxies was measured has an unknown sum, ranked after the known
    expect(f.topWorkloads.map((w) => [w.workload, w.counted, w.clusters])).toEqual([
      ['fine', 1, 120],
      ['huge', 0, null],
      ['neg', 0, null],
    ]);
    expect(f.namespaces[0]).toMatchObject({ reachable: 1, clusters: 120 });
  });

  it('a fleet with nothing measured has unknown totals, never 0', () => {
    const f = fleetOf(
      [target('h', 'a-1'), target('h', 'b-1')],
      [
        { ok: false, status: 'unknown', reason: 'no answer through the API server' },
        { ok: false, status: 'late', reason: 'not read by the deadline' },
      ],
    );
    expect(f.totals.clusters).toEqual({ value: null, known: 0, unknown: 2 });
    expect(f.totals.memoryBytes).toEqual({ value: null, known: 0, unknown: 2 });
    expect(f.namespaces[0]).toMatchObject({ reachable: 0, clusters: null, maxClusters: null });
  });
});
