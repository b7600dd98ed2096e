import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asMeshdx } from '../../server/auth/identity';
import { ApiBudgetSchema } from '../../lib/api/budget';
import { loadEnv } from '../../server/env';
import { baseRuntimeFor } from '../../server/runtime/registry';
import { getHealth } from '../../server/screens/cluster/health';
import { getFleet } from '../../server/screens/proxies/fleet';
import { runtimeOnSimulator, type SimRuntime } from '../../test-support/sim-runtime';

/**
 * /api/health and the fleet view report meshdx's own requests to the cluster from the runtime's
 * budget (the settings from the environment), port-forwards included.
 */
let on: SimRuntime;

beforeAll(async () => {
  on = await runtimeOnSimulator({
    scenario: 'demo',
    env: {
      MESHDX_API_QPS: '300',
      MESHDX_API_BURST: '300',
      MESHDX_PROXY_CONCURRENCY: '8',
      MESHDX_HEAP_GROWTH_PERCENT: '25',
    },
  });
});

afterAll(() => on?.close());

describe('meshdx reports its own API cost', () => {
  it('per runtime in /api/health and at the foot of the fleet', async () => {
    const fleet = await getFleet(asMeshdx(null), { query: { limit: 10 } });
    expect(fleet.rows.length).toBe(10);
    expect(fleet.page.matched).toBe(fleet.totals.proxies);
    const api = ApiBudgetSchema.parse(fleet.api);
    expect(api).toMatchObject({ qps: 300, burst: 300, proxyConcurrency: 8 });
    expect(api.requests.proxy).toBeGreaterThanOrEqual(fleet.totals.reachable);
    // istiod's sync state is read over port-forward: counted in the same budget
    expect(api.requests.portforward).toBeGreaterThan(0);
    expect(api.peakInFlightProxy).toBeLessThanOrEqual(8);
    const health = await getHealth(asMeshdx(null));
    const rt = health.runtimes.find((r) => r.context === baseRuntimeFor(null).context);
    const h = ApiBudgetSchema.parse(rt?.api);
    expect(h.requests.watch).toBeGreaterThanOrEqual(2);
    expect(h.requests.proxy).toBe(api.requests.proxy);
  });

  it('with its own memory and heap policy in /api/health', async () => {
    const { process: mem } = await getHealth(asMeshdx(null));
    expect(mem.heapGrowthPercent).toBe(25);
    expect(mem.rssMb).toBeGreaterThan(mem.heapUsedMb);
    expect(mem.heapUsedMb).toBeGreaterThan(0);
    expect(mem.heapTotalMb).toBeGreaterThanOrEqual(mem.heapUsedMb);
    expect(mem.heapLimitMb).toBeGreaterThan(mem.heapTotalMb);
  });

  it('refuses a heap growth it cannot apply, naming the setting', () => {
    for (const bad of ['-5', '401', 'ten', '2.5'])
      expect(() => loadEnv({ ...process.env, MESHDX_HEAP_GROWTH_PERCENT: bad })).toThrow(
        /MESHDX_HEAP_GROWTH_PERCENT/,
      );
    expect(
      loadEnv({ ...process.env, MESHDX_HEAP_GROWTH_PERCENT: '0' }).MESHDX_HEAP_GROWTH_PERCENT,
    ).toBe(0);
  });
});
