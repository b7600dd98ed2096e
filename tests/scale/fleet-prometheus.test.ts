import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProxyFleetRow } from '../../lib/api/proxies';
import { FleetViewSchema } from '../../lib/api/proxies';
import { KubeTransport } from '../../server/kube/transport';
import { scanVector } from '../../lib/metrics/prom-vector';
import { FLEET_QUERIES } from '../../server/prometheus/fleet';
import { promVector } from '../../server/prometheus/query';
import { scanFleet, type ScanDeps } from '../../server/screens/proxies/scan';
import { startSimulator, type RunningSimulator } from '../../server/sim/index';
import {
  requirePrometheus,
  startPrometheus,
  waitForQuery,
  type RunningPrometheus,
} from '../../test-support/prometheus';
import { meshedPods } from '../proxies/sim-truth';
import { podKey, podKeyOfObject } from '../../lib/refs/pod-ref';
import {
  NO_PROXY_TIMEOUT_FOR_COMPLETENESS,
  NO_DEADLINE_FOR_COMPLETENESS,
} from '../../test-support/deadlines';

/**
 * The fleet from a real Prometheus (Debian's package) scraping the simulator's Envoy series
 * against the fleet from meshdx's own per-proxy scrapes of the same simulated cluster.
 */
requirePrometheus();

let sim: RunningSimulator;
let prom: RunningPrometheus;
let deps: ScanDeps;
let running = 0;

async function simCount(key: string): Promise<number> {
  const info = (await (await fetch(`http://127.0.0.1:${sim.port}/_sim/info`)).json()) as {
    requests: Record<string, number>;
  };
  return info.requests[key] ?? 0;
}

/** Proxies with series on the simulator's scrape endpoint (terminating ones included). */
async function exposed(): Promise<number> {
  const body = await (await fetch(`http://127.0.0.1:${sim.port}/_sim/envoy/metrics`)).text();
  return body.split('\n').filter((l) => l.startsWith('envoy_cluster_manager_active_clusters{'))
    .length;
}

/** Waits until Prometheus holds exactly `n` active-clusters series. */
const promHolds = (n: number) =>
  waitForQuery(
    prom,
    'count(envoy_cluster_manager_active_clusters)',
    (r) => r.length === 1 && Number((r[0] as { value?: [number, string] }).value?.[1]) === n,
  );

const figures = (r: ProxyFleetRow) => ({
  status: r.status,
  activeClusters: r.activeClusters,
  warmingClusters: r.warmingClusters,
  serviceClustersEstimate: r.serviceClustersEstimate,
  listeners: r.listeners,
  memoryBytes: r.memoryBytes,
  istioVersion: r.istioVersion,
  serverState: r.serverState,
  sidecar: r.sidecar,
});

describe('the fleet from Prometheus', () => {
  beforeAll(async () => {
    sim = await startSimulator({
      scenario: 'demo',
      port: 0,
      clock: { fixed: new Date('2026-11-01T12:00:00Z') },
      api: { dialTimeoutMs: 300 },
    });
    const kc = new KubeConfig();
    kc.loadFromString(sim.kubeconfigYaml);
    prom = await startPrometheus({
      hostPort: `127.0.0.1:${sim.port}`,
      metricsPath: '/_sim/envoy/metrics',
      scrapeSeconds: 1,
    });
    deps = {
      transport: new KubeTransport(kc, { qps: 500, burst: 500, proxyConcurrency: 16 }),
      kc,
      istioNamespace: 'istio-system',
      concurrency: 16,
      timeoutMs: NO_PROXY_TIMEOUT_FOR_COMPLETENESS,
      deadlineMs: NO_DEADLINE_FOR_COMPLETENESS,
    };
    const first = await scanFleet(deps);
    running = first.rows.filter((r) => r.status === 'ok').length;
    expect(running).toBeGreaterThan(3);
    await promHolds(await exposed());
  }, 60_000);

  afterAll(async () => {
    deps?.transport.close();
    await prom?.stop();
    await sim?.close();
  });

  // a sample is taken as current up to 10 min old: the lag limit is the lagging test's (below);
  // here a loaded machine's late scrapes must not send the scan to the proxies
  const withProm = (): ScanDeps => ({
    ...deps,
    prometheus: {
      url: prom.url,
      timeoutMs: NO_PROXY_TIMEOUT_FOR_COMPLETENESS,
      maxAgeMs: 10 * 60_000,
    },
  });

  it('equals the fleet from per-proxy scrapes, without one pods/proxy request', async () => {
    const scraped = FleetViewSchema.parse(await scanFleet(deps));
    const before = await simCount('proxy pods/proxy');
    const fromProm = FleetViewSchema.parse(await scanFleet(withProm()));
    // the source first: when the scan went to the proxies, its note says why
    expect(fromProm.source.kind, fromProm.source.note ?? '').toBe('prometheus');
    expect(await simCount('proxy pods/proxy')).toBe(before);
    expect(fromProm.source.queries.length).toBeGreaterThanOrEqual(4);
    expect(scraped.source.kind).toBe('scrape');
    expect(fromProm.rows.map((r) => r.key)).toEqual(scraped.rows.map((r) => r.key));
    for (const r of fromProm.rows) {
      const s = scraped.rows.find((x) => x.key === r.key);
      expect(figures(r), r.key).toEqual(s && figures(s));
      if (r.status === 'ok') {
        expect(r.source).toBe('prometheus');
        // the sample time is Prometheus's scrape time: within the 10 min the scan takes as current
        expect(Date.now() - Date.parse(r.sampledAt ?? '')).toBeLessThan(10 * 60_000);
      }
    }
    expect(fromProm.totals).toEqual(scraped.totals);
    expect(fromProm.source.newestSampleAt).not.toBeNull();
  });

  it('a proxy on a canary version is read as its own scrape reads it', async () => {
    const pod = meshedPods(sim).find((p) => p.status?.podIP && !p.metadata.deletionTimestamp);
    if (!pod) throw new Error('no running meshed pod');
    const key = podKeyOfObject(pod);
    const canary = structuredClone(pod);
    for (const c of [...(canary.spec.initContainers ?? []), ...canary.spec.containers])
      if (c.name === 'istio-proxy') c.image = 'docker.io/istio/proxyv2:1.25.0';
    sim.store.upsert('pods', canary);
    try {
      await waitForQuery(
        prom,
        'count(istio_build{component="proxy",tag="1.25.0"})',
        (r) => r.length === 1 && Number((r[0] as { value?: [number, string] }).value?.[1]) === 1,
      );
      const fromProm = FleetViewSchema.parse(await scanFleet(withProm()));
      const scraped = FleetViewSchema.parse(await scanFleet(deps));
      // the usual version is assumed for the rest; the canary is asked for by name of version
      expect(fromProm.source.queries.some((q) => q.includes('tag!='))).toBe(true);
      expect(fromProm.rows.find((r) => r.key === key)?.istioVersion).toBe('1.25.0');
      for (const r of fromProm.rows) {
        const s = scraped.rows.find((x) => x.key === r.key);
        expect(figures(r), r.key).toEqual(s && figures(s));
      }
    } finally {
      sim.store.upsert('pods', pod);
    }
  });

  it('a proxy without series is unknown, never 0', async () => {
    const pod = meshedPods(sim).find((p) => p.status?.podIP && !p.metadata.deletionTimestamp);
    const key = podKey(String(pod?.metadata.namespace), String(pod?.metadata.name));
    sim.faults.unreachablePods.add(key);
    try {
      const n = await exposed();
      expect(n).toBe(running + 1);
      await promHolds(n);
      const fleet = FleetViewSchema.parse(await scanFleet(withProm()));
      const row = fleet.rows.find((r) => r.key === key);
      expect(row?.status).toBe('unknown');
      expect(row?.activeClusters).toBeNull();
      expect(row?.memoryBytes).toBeNull();
      expect(row?.reason).toMatch(/no envoy_cluster_manager_active_clusters series/);
      expect(fleet.totals.unknown).toBe(1);
      expect(fleet.totals.reachable).toBe(running - 1);
      expect(fleet.source.note).toMatch(/1 running proxy has no usable series/);
      // unknown ranks after every proxy with numbers
      const lastOk = fleet.rows.findLastIndex((r) => r.status === 'ok');
      expect(fleet.rows.findIndex((r) => r.key === key)).toBeGreaterThan(lastOk);
    } finally {
      sim.faults.unreachablePods.clear();
    }
  });

  it("ages samples on Prometheus's clock: one an hour behind meshdx's is not lagging", async () => {
    const SKEW_S = 3600;
    // every proxy's series back in Prometheus (the test before hid one)
    await promHolds(await exposed());
    // this Prometheus as one whose clock reads an hour earlier: the times it answers are moved
    // back an hour, and the instants meshdx asks for are moved forward before they reach it
    const skewed = (async (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(String(input));
      const time = url.searchParams.get('time');
      if (time !== null) url.searchParams.set('time', (Number(time) + SKEW_S).toFixed(3));
      const query = url.searchParams.get('query') ?? '';
      const res = await fetch(url, init);
      const body = (await res.json()) as {
        data?: { result?: { value: [number, string] }[] };
      };
      const timeValued = query.includes('timestamp(') || query === 'vector(time())';
      for (const r of body.data?.result ?? []) {
        r.value[0] -= SKEW_S;
        if (timeValued) r.value[1] = String(Number(r.value[1]) - SKEW_S);
      }
      return new Response(JSON.stringify(body), { status: res.status });
    }) as typeof fetch;
    const fleet = FleetViewSchema.parse(
      await scanFleet({
        ...deps,
        prometheus: { url: prom.url, timeoutMs: 5_000, maxAgeMs: 60_000, fetchImpl: skewed },
      }),
    );
    expect(fleet.source.kind).toBe('prometheus');
    expect(
      fleet.rows.filter((r) => r.status === 'unknown').map((r) => `${r.key}: ${r.reason}`),
    ).toEqual([]);
    expect(fleet.totals.reachable).toBe(running);
    // the rows carry Prometheus's sample times: an hour before this machine's clock
    const sampled = fleet.rows.find((r) => r.status === 'ok')?.sampledAt ?? '';
    expect(Date.now() - Date.parse(sampled)).toBeGreaterThan(SKEW_S * 1000 - 60_000);
  });

  it('a lagging series is unknown too', async () => {
    const fleet = await scanFleet({
      ...deps,
      prometheus: { url: prom.url, timeoutMs: 5_000, maxAgeMs: -1 },
    });
    expect(fleet.totals.reachable).toBe(0);
    // every proxy Prometheus has is older than the (negative) limit: all unknown, none as 0
    const lagging = fleet.rows.filter(
      (r) => r.status === 'unknown' && /lagging scrape/.test(r.reason ?? ''),
    );
    expect(lagging.length).toBeGreaterThanOrEqual(running - 1);
    expect(lagging.every((r) => r.activeClusters === null && r.listeners === null)).toBe(true);
  });

  it('a Prometheus that is down falls back to per-proxy scrapes with a note', async () => {
    const fleet = await scanFleet({
      ...deps,
      prometheus: { url: 'http://127.0.0.1:9', timeoutMs: 1_000, maxAgeMs: 60_000 },
    });
    expect(fleet.source.kind).toBe('scrape');
    expect(fleet.source.note).toMatch(/not reachable.*read from each proxy instead/);
    expect(fleet.totals.reachable).toBeGreaterThanOrEqual(running - 1);
  });

  it('reads an instant vector sample by sample and names any other answer', async () => {
    const c = { baseUrl: prom.url, timeoutMs: 5_000, fetchImpl: fetch };
    const seen: string[] = [];
    const ok = await promVector(
      c,
      FLEET_QUERIES.activeClusters,
      ['namespace', 'pod'],
      (l, at, v) => {
        expect(at).toBeGreaterThan(0);
        expect(Number.isFinite(v)).toBe(true);
        seen.push(podKey(String(l[0]), String(l[1])));
      },
    );
    expect(ok).toBeNull();
    // the same series Prometheus's own answer lists
    const text = await (
      await fetch(
        `${prom.url}/api/v1/query?query=${encodeURIComponent(FLEET_QUERIES.activeClusters)}`,
      )
    ).text();
    const raw = JSON.parse(text) as { data: { result: { metric: Record<string, string> }[] } };
    // and this Prometheus's answer is the compact one the scan reads (not the JSON fallback)
    const scanned = scanVector(new TextEncoder().encode(text), ['namespace', 'pod']);
    expect(scanned?.columns).toEqual([
      raw.data.result.map((r) => r.metric.namespace),
      raw.data.result.map((r) => r.metric.pod),
    ]);
    expect(seen.sort()).toEqual(
      raw.data.result.map((r) => podKey(String(r.metric.namespace), String(r.metric.pod))).sort(),
    );
    expect(seen.length).toBeGreaterThan(3);
    const visit = () => {
      throw new Error('no sample of a refused answer is visited');
    };
    // a range selector answers a matrix, a scalar a scalar, a typo a parse error
    expect(await promVector(c, 'envoy_cluster_manager_active_clusters[1m]', [], visit)).toMatch(
      /answered a matrix, not an instant vector/,
    );
    expect(await promVector(c, 'scalar(vector(1))', [], visit)).toMatch(/answered a scalar/);
    expect(await promVector(c, 'max by (pod', [], visit)).toMatch(
      /Prometheus query failed: .*parse/,
    );
  });
});
