import { describe, expect, it } from 'vitest';
import { inventoryOf } from '../../server/screens/overview/inventory';
import { scanFleet } from '../../server/screens/proxies/scan';
import { timelineFleetOf } from '../../server/screens/timelines/timelines';
import { runtimeOn, simOnly } from '../../test-support/simulator';
import {
  NO_PROXY_TIMEOUT_FOR_COMPLETENESS,
  NO_DEADLINE_FOR_COMPLETENESS,
} from '../../test-support/deadlines';

/**
 * The request budget seen from the API server while meshdx's views are flooded: the views run
 * as the server runs them (a runtime with its watches, its transport, its budget), and the
 * simulator counts what reaches it. Watches are counted apart: they are not rate limited.
 */
const demo = simOnly('demo');

async function requests(): Promise<Record<string, number>> {
  const info = (await (await fetch(`${demo.sim.url}/_sim/info`)).json()) as {
    requests: Record<string, number>;
  };
  return info.requests;
}

/** API requests the simulator received, watches left out (they are not rate limited). */
async function budgeted(): Promise<number> {
  const r = await requests();
  return Object.entries(r)
    .filter(([k]) => !k.startsWith('watch '))
    .reduce((n, [, v]) => n + v, 0);
}

describe('a flood of views stays within the budget the API server sees', () => {
  it('Overview and Timelines, twelve of each at once, never exceed burst + QPS x t', async () => {
    const qps = 10;
    const burst = 5;
    const rt = runtimeOn(demo.kc, {
      settings: {
        MESHDX_API_QPS: qps,
        MESHDX_API_BURST: burst,
        MESHDX_VIEW_DEADLINE_MS: 60_000,
        MESHDX_CLOCK: 'objects',
      },
    });
    try {
      const before = await budgeted();
      const started = Date.now();
      rt.start();
      const views = Array.from({ length: 12 }, (_, i) =>
        i % 2 === 0 ? inventoryOf(rt) : timelineFleetOf(rt),
      );
      const seen: { atMs: number; count: number }[] = [];
      let done = false;
      const sampler = (async () => {
        while (!done) {
          await new Promise((r) => setTimeout(r, 200));
          seen.push({ atMs: Date.now() - started, count: (await budgeted()) - before });
        }
      })();
      const answers = await Promise.all(views);
      done = true;
      await sampler;
      expect(answers).toHaveLength(12);
      const total = (await budgeted()) - before;
      // the flood needed more than the burst: the bucket made it wait
      expect(total).toBeGreaterThan(burst + qps);
      expect(Date.now() - started).toBeGreaterThanOrEqual(((total - burst) / qps) * 1000 - 300);
      for (const s of seen) {
        expect(s.count, `at ${s.atMs} ms`).toBeLessThanOrEqual(
          burst + Math.ceil((qps * s.atMs) / 1000) + 1,
        );
      }
      const stats = rt.transport.budgetStats();
      expect(stats.throttledWaits).toBeGreaterThan(0);
      // meshdx's own count per second includes the two watches it opened (counted, not limited)
      expect(stats.peakQps).toBeLessThanOrEqual(burst + qps + 2 + 1);
    } finally {
      rt.stop();
    }
  });

  it('two Proxies scans at once share the runtime-wide cap on pods/proxy', async () => {
    const rt = runtimeOn(demo.kc, {
      settings: {
        MESHDX_API_QPS: 1000,
        MESHDX_API_BURST: 1000,
        MESHDX_PROXY_CONCURRENCY: 3,
        MESHDX_CLOCK: 'objects',
      },
    });
    try {
      const before = (await requests())['proxy pods/proxy'] ?? 0;
      const deps = {
        transport: rt.transport,
        kc: rt.kc,
        istioNamespace: 'istio-system',
        concurrency: 16,
        timeoutMs: NO_PROXY_TIMEOUT_FOR_COMPLETENESS,
        deadlineMs: NO_DEADLINE_FOR_COMPLETENESS,
      };
      const [a, b] = await Promise.all([scanFleet(deps), scanFleet(deps)]);
      const read = a.rows.filter((r) => r.status === 'ok').length;
      expect(read).toBeGreaterThan(3);
      expect(b.rows.filter((r) => r.status === 'ok').length).toBe(read);
      const s = rt.transport.budgetStats();
      expect(s.peakInFlightProxy).toBe(3);
      expect(s.slotWaits).toBeGreaterThan(0);
      expect(((await requests())['proxy pods/proxy'] ?? 0) - before).toBe(s.requests.proxy ?? -1);
    } finally {
      rt.stop();
    }
  });

  it('a view told 429 Retry-After waits it out and then answers', async () => {
    const rt = runtimeOn(demo.kc, {
      settings: { MESHDX_VIEW_DEADLINE_MS: 60_000, MESHDX_CLOCK: 'objects' },
    }).start();
    try {
      await rt.pods.whenListed();
      const set = await fetch(`${demo.sim.url}/_sim/throttle`, {
        method: 'POST',
        body: JSON.stringify({ count: 2, retryAfterSeconds: 1, match: 'list services' }),
      });
      expect(set.status).toBe(200);
      const before = (await requests())['list services'] ?? 0;
      const started = Date.now();
      const inv = await inventoryOf(rt);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_950);
      expect(inv.totals.services).toBeGreaterThan(0);
      expect(((await requests())['list services'] ?? 0) - before).toBe(3);
      const s = rt.transport.budgetStats();
      expect(s.tooManyRequests).toBe(2);
      expect(s.retryAfterMs).toBe(2_000);
    } finally {
      rt.stop();
    }
  });
});
