import { describe, expect, it } from 'vitest';
import { FleetViewSchema, type FleetView } from '../../lib/api/proxies';
import { isRequestError } from '../../lib/api/request-error';
import { sidecarScopes } from '../../lib/dataplane/proxy-container';
import { scanDeps } from '../../server/screens/proxies/fleet';
import { scanFleet } from '../../server/screens/proxies/scan';
import { runtimeOn, simOnly } from '../../test-support/simulator';
import {
  NO_DEADLINE_FOR_COMPLETENESS,
  NO_PROXY_TIMEOUT_FOR_COMPLETENESS,
} from '../../test-support/deadlines';

/**
 * Unknown is a state: with the API server 5 s slow (the simulator's latency fault, on every
 * request from the first list on, as a real overloaded API server answers), the fleet answers
 * by its deadline with what it has. A proxy it could not hear through the slow API server is
 * unknown with the reason, not unreachable (only the API server was slow); no total counts an
 * unknown figure as 0; the Sidecars it could not read are unknown, not "none".
 */
const demo = simOnly('demo');

const DEADLINE_MS = 10_000;
// the answer's own time is the proof (durationMs); the wall clock is a guard with room for a
// loaded machine's late timers: a fleet that waited for the slow reads would take 30 s or more
// (the pod list, then five rounds of 32 proxies, 5 s each)
const SLACK_MS = 8_000;
/** How long the API server holds every answer when the pod list must be late: far past 2 s. */
const POD_LIST_HELD_MS = 30_000;

describe('the fleet with the API server 5 s slow', () => {
  it('answers by its deadline, every unread figure unknown with its reason, never 0', async () => {
    demo.sim.faults.latencyMs = 5_000;
    const rt = runtimeOn(demo.kc, {
      settings: { MESHDX_VIEW_DEADLINE_MS: DEADLINE_MS, MESHDX_CLOCK: 'objects' },
    }).start();
    try {
      const t0 = Date.now();
      const fleet: FleetView = FleetViewSchema.parse(await scanFleet(scanDeps(rt)));
      expect(Date.now() - t0).toBeLessThan(DEADLINE_MS + SLACK_MS);
      expect(fleet.rows.length).toBeGreaterThan(10);

      // only the API server was slow: no proxy is called unreachable
      expect(fleet.rows.filter((r) => r.status === 'unreachable')).toEqual([]);
      expect(fleet.totals.unreachable).toBe(0);
      for (const r of fleet.rows) {
        if (r.status === 'ok' || r.status === 'not-running') continue;
        expect(r.reason, r.key).toMatch(/no answer through the API server|deadline/);
        expect([r.activeClusters, r.listeners, r.memoryBytes], r.key).toEqual([null, null, null]);
      }

      // totals count what is known and say how many are unknown: never a 0 for nothing read
      const running = fleet.rows.filter((r) => r.status !== 'not-running').length;
      const read = fleet.rows.filter((r) => r.status === 'ok').length;
      for (const sum of [fleet.totals.clusters, fleet.totals.listeners, fleet.totals.memoryBytes]) {
        expect(sum.known).toBe(read);
        expect(sum.unknown).toBe(running - read);
        if (read === 0) expect(sum.value).toBeNull();
      }
      for (const n of fleet.namespaces) if (n.reachable === 0) expect(n.clusters).toBeNull();
      for (const w of fleet.topWorkloads) if (w.counted === 0) expect(w.clusters).toBeNull();

      // what the view could not read by its deadline is named, and nothing stands in for it
      const late = (fleet.late ?? []).map((l) => l.part);
      if (late.includes('Istio configuration (Sidecars)')) {
        expect(fleet.totals.unscopedProxies).toBe(0);
        expect(fleet.totals.sidecarUnknown).toBe(
          fleet.rows.filter((x) => sidecarScopes(x.placement)).length,
        );
        for (const n of fleet.namespaces) expect(n.unscoped, n.namespace).toBe(false);
        for (const r of fleet.rows.filter((x) => x.placement === 'sidecar'))
          expect(r.sidecarUnknown, r.key).toMatch(/not read within the 10000 ms deadline/);
      }
      // the unknown rows rank after every measured one
      const firstUnknown = fleet.rows.findIndex((r) => r.status !== 'ok');
      const lastOk = fleet.rows.findLastIndex((r) => r.status === 'ok');
      if (firstUnknown >= 0 && lastOk >= 0) expect(lastOk).toBeLessThan(firstUnknown);
    } finally {
      rt.stop();
      demo.sim.faults.latencyMs = 0;
    }
  }, 60_000);

  it('a view that cannot draw anything without the pod list says so by its deadline', async () => {
    demo.sim.faults.latencyMs = POD_LIST_HELD_MS;
    const rt = runtimeOn(demo.kc, {
      settings: { MESHDX_VIEW_DEADLINE_MS: 2_000, MESHDX_CLOCK: 'objects' },
    }).start();
    try {
      const t0 = Date.now();
      const e = await scanFleet(scanDeps(rt)).catch((x: unknown) => x);
      // it did not wait for the held pod list
      expect(Date.now() - t0).toBeLessThan(POD_LIST_HELD_MS / 2);
      expect(isRequestError(e) && e.message).toMatch(
        /^Proxies answered at its 2000 ms deadline without .*pods \(not read within the 2000 ms deadline: the pod list is still running/,
      );
    } finally {
      rt.stop();
      demo.sim.faults.latencyMs = 0;
    }
  }, 30_000);
});

describe('impossible gauges from a proxy', () => {
  it('are unknown with the raw value shown: not ok, not ranked first, not in the totals', async () => {
    const rt = runtimeOn(demo.kc, {
      // every proxy is read (two of them then judged): no deadline or timeout a busy machine misses
      settings: {
        MESHDX_VIEW_DEADLINE_MS: NO_DEADLINE_FOR_COMPLETENESS,
        MESHDX_PROXY_TIMEOUT_MS: NO_PROXY_TIMEOUT_FOR_COMPLETENESS,
        MESHDX_CLOCK: 'objects',
      },
    }).start();
    try {
      const first = await scanFleet(scanDeps(rt));
      const [a, b] = first.rows.filter((r) => r.status === 'ok');
      expect(a && b).toBeTruthy();
      if (!a || !b) return;
      demo.sim.faults.gaugeOverrides.set(a.key, {
        envoy_cluster_manager_active_clusters: '-5',
        envoy_server_memory_allocated: '1e308',
      });
      demo.sim.faults.gaugeOverrides.set(b.key, {
        envoy_cluster_manager_active_clusters: '99999999999999999999999',
        envoy_listener_manager_total_listeners_active: '1.5',
      });
      const fleet = FleetViewSchema.parse(await scanFleet(scanDeps(rt)));
      const ra = fleet.rows.find((r) => r.key === a.key);
      const rb = fleet.rows.find((r) => r.key === b.key);
      expect(ra).toMatchObject({ status: 'unknown', activeClusters: null, memoryBytes: null });
      expect(ra?.reason).toMatch(/^implausible envoy_cluster_manager_active_clusters -5: /);
      expect(ra?.implausible.map((i) => i.raw)).toEqual(['-5', '1e+308']);
      expect(rb).toMatchObject({ status: 'unknown', activeClusters: null, listeners: null });
      expect(rb?.implausible.map((i) => i.raw)).toEqual(['1e+23', '1.5']);
      // never first, after every measured proxy
      const lastOk = fleet.rows.findLastIndex((r) => r.status === 'ok');
      expect(fleet.rows.findIndex((r) => r.key === a.key)).toBeGreaterThan(lastOk);
      expect(fleet.rows.findIndex((r) => r.key === b.key)).toBeGreaterThan(lastOk);
      // the totals are the measured proxies' alone
      const ok = fleet.rows.filter((r) => r.status === 'ok');
      expect(fleet.totals.clusters.value).toBe(ok.reduce((n, r) => n + (r.activeClusters ?? 0), 0));
      expect(fleet.totals.clusters.value).toBeLessThan(10_000_000);
      expect(fleet.totals.memoryBytes.value).toBeLessThan(2 ** 40);
      expect(fleet.totals.clusters.unknown).toBeGreaterThanOrEqual(2);
    } finally {
      demo.sim.faults.gaugeOverrides.clear();
      rt.stop();
    }
  }, 60_000);
});
