import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { envoyAdminGet, podProxyGet } from '../../server/kube/podports';
import { KubeTransport } from '../../server/kube/transport';
import { scanFleet, type SyncCache } from '../../server/screens/proxies/scan';
import { startSimulator, type RunningSimulator } from '../../server/sim/index';
import type { Pod } from '../../lib/kube/types';
import { meshedPods } from '../proxies/sim-truth';
import { podKey, podKeyOfObject } from '../../lib/refs/pod-ref';
import {
  GATHER_GUARD_MS,
  NO_DEADLINE_FOR_COMPLETENESS,
  NO_PROXY_TIMEOUT_FOR_COMPLETENESS,
} from '../../test-support/deadlines';

/**
 * meshdx's request budget seen from the API server's side: the simulator counts every request it
 * receives (GET /_sim/info `requests`, by verb and resource), so these tests prove what the
 * server got, not what meshdx thinks it sent.
 */
let sim: RunningSimulator;
let kc: KubeConfig;
const base = () => `http://127.0.0.1:${sim.port}`;

async function simCount(key: string): Promise<number> {
  const info = (await (await fetch(`${base()}/_sim/info`)).json()) as {
    requests: Record<string, number>;
  };
  return info.requests[key] ?? 0;
}

beforeAll(async () => {
  sim = await startSimulator({
    scenario: 'demo',
    port: 0,
    clock: { fixed: new Date('2026-11-01T12:00:00Z') },
    api: { dialTimeoutMs: 300 },
  });
  kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfigYaml);
});

afterAll(async () => {
  await sim?.close();
});

// The lateness tests below make their lateness with a hold far longer than the test waits, and
// never race a short deadline against the machine: with 2.5 s (and then 20 s), a loaded machine
// saw more proxies late than the ones held (137 of 140).
/** How long a held proxy's answer is held: far past the moment the test gives it up. */
const PROXY_HELD_MS = 5 * 60_000;
/**
 * How long istiod's sync state is held: far past the fleet's figures and their grace (under a
 * load ten times over, the figures took 15.8 s; 12 s was too short there).
 */
const ISTIOD_HELD_MS = 30_000;

describe('request budget against the simulated API server', () => {
  it('never lets more than burst + QPS x t requests reach the server', async () => {
    const t = new KubeTransport(kc, { qps: 20, burst: 5, proxyConcurrency: 4 });
    try {
      const before = await simCount('list namespaces');
      const started = Date.now();
      const flood = Array.from({ length: 45 }, () => t.getJson('/api/v1/namespaces'));
      const seen: { atMs: number; count: number }[] = [];
      const sampler = (async () => {
        for (let i = 0; i < 8; i++) {
          await new Promise((r) => setTimeout(r, 250));
          seen.push({
            atMs: Date.now() - started,
            count: (await simCount('list namespaces')) - before,
          });
        }
      })();
      await Promise.all(flood);
      await sampler;
      const elapsed = Date.now() - started;
      // 40 requests above the burst at 20 QPS: at least 2 s
      expect(elapsed).toBeGreaterThanOrEqual(1_950);
      for (const s of seen) {
        // what the server received by then never exceeds the bucket (+1 for a request in flight)
        expect(s.count, `at ${s.atMs} ms`).toBeLessThanOrEqual(
          5 + Math.ceil((20 * s.atMs) / 1000) + 1,
        );
      }
      expect((await simCount('list namespaces')) - before).toBe(45);
      const stats = t.budgetStats();
      expect(stats.requests.list).toBe(45);
      expect(stats.throttledWaits).toBe(40);
      expect(stats.peakQps).toBeLessThanOrEqual(5 + 20 + 1);
    } finally {
      t.close();
    }
  });

  it('holds pods/proxy calls to the runtime-wide cap', async () => {
    const t = new KubeTransport(kc, { qps: 1000, burst: 1000, proxyConcurrency: 3 });
    const pod = meshedPods(sim).find((p) => p.status?.podIP && !p.metadata.deletionTimestamp);
    expect(pod).toBeDefined();
    const ns = pod?.metadata.namespace ?? '';
    const name = pod?.metadata.name ?? '';
    sim.faults.slowPods.set(podKey(ns, name), 600);
    try {
      const before = await simCount('proxy pods/proxy');
      const started = Date.now();
      const calls = Array.from({ length: 9 }, () =>
        podProxyGet(t, ns, name, 15090, '/stats/prometheus', {
          timeoutMs: NO_PROXY_TIMEOUT_FOR_COMPLETENESS,
        }),
      );
      // never more than 3 in flight, 6 waited for a slot (not a look after a sleep: on a loaded
      // machine the first 3 had not all reached the server 300 ms in)
      await Promise.all(calls);
      expect(Date.now() - started).toBeGreaterThanOrEqual(3 * 600 - 50);
      expect((await simCount('proxy pods/proxy')) - before).toBe(9);
      expect(t.budgetStats().peakInFlightProxy).toBe(3);
      expect(t.budgetStats().slotWaits).toBe(6);
    } finally {
      sim.faults.slowPods.clear();
      t.close();
    }
  });

  it('port-forwards take their slot in the same budget', async () => {
    const t = new KubeTransport(kc, { qps: 1000, burst: 1000, proxyConcurrency: 2 });
    const pod = meshedPods(sim).find((p) => p.status?.podIP && !p.metadata.deletionTimestamp);
    const ns = pod?.metadata.namespace ?? '';
    const name = pod?.metadata.name ?? '';
    try {
      await Promise.all(
        Array.from({ length: 5 }, () =>
          envoyAdminGet(kc, ns, name, '/ready', { timeoutMs: NO_PROXY_TIMEOUT_FOR_COMPLETENESS }),
        ),
      );
      const s = t.budgetStats();
      expect(s.requests.portforward).toBe(5);
      expect(s.peakInFlightProxy).toBeLessThanOrEqual(2);
      expect(s.slotWaits).toBeGreaterThan(0);
    } finally {
      t.close();
    }
  });

  it('waits out 429 Retry-After and then gets its answer', async () => {
    const t = new KubeTransport(kc, { qps: 1000, burst: 1000, proxyConcurrency: 4 });
    try {
      const set = await fetch(`${base()}/_sim/throttle`, {
        method: 'POST',
        body: JSON.stringify({ count: 2, retryAfterSeconds: 1, match: 'list services' }),
      });
      expect(set.status).toBe(200);
      const before = await simCount('list services');
      const started = Date.now();
      const list = await t.getJson<{ items: unknown[] }>('/api/v1/services');
      expect(Array.isArray(list.items)).toBe(true);
      // two 429s, each with Retry-After: 1
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_950);
      expect((await simCount('list services')) - before).toBe(3);
      const s = t.budgetStats();
      expect(s.tooManyRequests).toBe(2);
      expect(s.retryAfterMs).toBe(2_000);
      expect(s.retries).toBe(2);
    } finally {
      t.close();
    }
  });

  it('retries a read after a 5xx a bounded number of times', async () => {
    const t = new KubeTransport(kc, { qps: 1000, burst: 1000, proxyConcurrency: 4 });
    sim.faults.errorRate = 1;
    try {
      const before = await simCount('list configmaps');
      await expect(t.getJson('/api/v1/configmaps')).rejects.toThrow(/500/);
      // the first try and 3 retries
      expect((await simCount('list configmaps')) - before).toBe(4);
      expect(t.budgetStats().retries).toBe(3);
    } finally {
      sim.faults.errorRate = 0;
      t.close();
    }
  });

  it(
    'a fleet scan answers by its deadline and lists the proxies it could not read as late',
    async () => {
      const t = new KubeTransport(kc, { qps: 1000, burst: 1000, proxyConcurrency: 16 });
      const slow = meshedPods(sim)
        .filter((p) => p.status?.podIP && !p.metadata.deletionTimestamp)
        .slice(0, 3)
        .map((p) => podKeyOfObject(p));
      for (const k of slow) sim.faults.slowPods.set(k, PROXY_HELD_MS);
      // the deadline comes once every proxy but the held ones is read (on the scan's own
      // progress, not a clock): what is late then is exactly what was held
      let cutOff = () => undefined as void;
      const proxiesDue = new Promise<void>((r) => (cutOff = r));
      try {
        const started = Date.now();
        const fleet = await scanFleet(
          {
            transport: t,
            kc,
            istioNamespace: 'istio-system',
            concurrency: 16,
            // past the hold: the deadline, not the timeout, is what leaves the held proxies out
            timeoutMs: 2 * PROXY_HELD_MS,
            deadlineMs: NO_DEADLINE_FOR_COMPLETENESS,
            proxiesDue,
          },
          (p) => {
            if (p.done >= p.total - slow.length) cutOff();
          },
        );
        // it answered by its deadline, without waiting for the held proxies
        expect(Date.now() - started).toBeLessThan(PROXY_HELD_MS);
        const late = fleet.rows.filter((r) => r.status === 'late');
        expect(late.map((r) => r.key).sort()).toEqual([...slow].sort());
        for (const r of late) {
          expect(r.activeClusters).toBeNull();
          expect(r.reason).toMatch(/deadline/);
        }
        expect(fleet.totals.late).toBe(3);
        expect(fleet.totals.reachable).toBeGreaterThan(3);
        expect(fleet.source.note).toMatch(
          new RegExp(`3 proxies not read within the ${NO_DEADLINE_FOR_COMPLETENESS} ms deadline`),
        );
      } finally {
        sim.faults.slowPods.clear();
        t.close();
      }
    },
    GATHER_GUARD_MS,
  );

  it(
    'does not hold the fleet for a slow istiod: its sync state is late, then reused',
    async () => {
      const t = new KubeTransport(kc, { qps: 1000, burst: 1000, proxyConcurrency: 16 });
      const istiods = sim.store
        .list<Pod>('pods')
        .filter(
          (p) => p.metadata.namespace === 'istio-system' && p.metadata.labels?.app === 'istiod',
        );
      expect(istiods.length).toBeGreaterThan(0);
      for (const p of istiods)
        sim.faults.slowPods.set(`istio-system/${p.metadata.name}`, ISTIOD_HELD_MS);
      const syncCache: SyncCache = { value: null };
      const deps = {
        transport: t,
        kc,
        istioNamespace: 'istio-system',
        concurrency: 16,
        timeoutMs: 2 * ISTIOD_HELD_MS,
        deadlineMs: 3 * ISTIOD_HELD_MS,
        syncCache,
      };
      try {
        const started = Date.now();
        const first = await scanFleet(deps);
        expect(Date.now() - started).toBeLessThan(ISTIOD_HELD_MS);
        expect(first.sync.available).toBe(false);
        expect(first.sync.problems.join(' ')).toMatch(/sync state late/);
        expect(first.rows.every((r) => r.sync === null)).toBe(true);
        // the late answer is kept once it comes in: the next view shows it, with its age
        await vi.waitFor(() => expect(syncCache.value).not.toBeNull(), {
          timeout: 3 * ISTIOD_HELD_MS,
          interval: 100,
        });
        const second = await scanFleet(deps);
        expect(second.sync.available).toBe(true);
        expect(second.sync.problems.join(' ')).toMatch(/sync state is \d+ s old/);
      } finally {
        sim.faults.slowPods.clear();
        t.close();
      }
    },
    GATHER_GUARD_MS,
  );
});
