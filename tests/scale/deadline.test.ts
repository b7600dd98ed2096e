import { describe, expect, it, vi } from 'vitest';
import { isRequestError } from '../../lib/api/request-error';
import { inventoryOf } from '../../server/screens/overview/inventory';
import { scanDeps } from '../../server/screens/proxies/fleet';
import { scanFleet } from '../../server/screens/proxies/scan';
import { computeScoping, scopingDeps } from '../../server/screens/scoping/scoping';
import { lastReads } from '../../server/screens/deadline';
import { timelineFleetOf } from '../../server/screens/timelines/timelines';
import { runtimeOn, simOnly } from '../../test-support/simulator';
import { NO_DEADLINE_FOR_COMPLETENESS } from '../../test-support/deadlines';

/**
 * A slow API server (the simulator's latency fault: every request, the first list included,
 * answers late) against the views' deadline: a view answers by its deadline, naming what it
 * is still reading, and answers in full once the reads are in.
 */
const demo = simOnly('demo');

/** What a view answered: its value, or the error it threw. */
async function settled<T>(f: () => Promise<T>): Promise<{ value: T | unknown }> {
  return { value: await f().catch((e: unknown) => e) };
}

/**
 * How long the API server holds every answer in the first test: far past the 700 ms deadline
 * and the two views that must answer before the pod list is in, however busy the machine. The
 * test then waits for the reads it needs in (events, not timing) before the views that use them.
 */
const HELD_MS = 6_000;

describe('a view answers by its deadline on a slow API server', () => {
  it('names the pod list it is still reading, then answers once it is in', async () => {
    demo.sim.faults.latencyMs = HELD_MS;
    const rt = runtimeOn(demo.kc, {
      settings: { MESHDX_VIEW_DEADLINE_MS: 700, MESHDX_CLOCK: 'objects' },
    }).start();
    try {
      const views: [string, () => Promise<unknown>][] = [
        ['Timelines', () => timelineFleetOf(rt)],
        ['Overview', () => inventoryOf(rt)],
        ['Proxies', () => scanFleet(scanDeps(rt))],
        ['Scoping', () => computeScoping(scopingDeps(rt))],
      ];
      // the proof is what each answer holds, not how soon it came: a view that waited for the
      // held reads would have them, and no 503 naming its 700 ms deadline nor a late part (a
      // time bound measured the machine: 3.2 s against 3 s on a loaded one)
      const reads = lastReads(rt);
      for (const [view, f] of views) {
        // Proxies draws the fleet once the pod list is in; Scoping answers from the lists the
        // views before it read (their reads went on past their deadlines): both wait for those
        if (view === 'Proxies') await rt.pods.whenListed();
        if (view === 'Scoping')
          await vi.waitFor(
            () => {
              for (const key of ['namespaces', 'services', 'istio-config'])
                expect(reads.last(key), key).not.toBeNull();
            },
            { timeout: 3 * HELD_MS, interval: 50 },
          );
        const r = await settled(f);
        if (view === 'Proxies') {
          // the pods are in: the fleet answers without the Sidecars it could not read
          // by its deadline, naming them, each proxy's Sidecar unknown (not "none")
          const fleet = r.value as Awaited<ReturnType<typeof scanFleet>>;
          expect(isRequestError(fleet)).toBe(false);
          expect(fleet.late?.map((l) => l.part)).toContain('Istio configuration (Sidecars)');
          expect(fleet.rows.every((x) => x.placement !== 'sidecar' || x.sidecarUnknown)).toBe(true);
          continue;
        }
        if (view === 'Scoping') {
          // the views before it read the lists it needs: it answers from those reads, named with
          // their age, and istiod's push health (through the slow API server) is late, not waited
          const sc = r.value as Awaited<ReturnType<typeof computeScoping>>;
          expect(isRequestError(sc)).toBe(false);
          expect(sc.late?.map((l) => l.part)).toEqual(
            expect.arrayContaining(['namespaces', 'services', 'Istio configuration']),
          );
          expect(sc.late?.[0]?.detail).toMatch(
            /not read within the 700 ms deadline; shown as read/,
          );
          expect(sc.push.istiods.length).toBeGreaterThan(0);
          for (const i of sc.push.istiods) expect(i.error).toMatch(/^late: not read within/);
          continue;
        }
        const e = r.value;
        expect(isRequestError(e), view).toBe(true);
        if (!isRequestError(e)) continue;
        expect(e.status).toBe(503);
        expect(e.message).toMatch(new RegExp(`^${view} answered at its 700 ms deadline without`));
        expect(e.message).toMatch(/the pod list is still running \(0 pods read in 0 page\(s\)\)/);
      }
      // the list went on meanwhile: a later view has it
      await rt.pods.whenListed();
      await rt.cache.ready();
      const fleet = await settled(() => timelineFleetOf(rt));
      // the injector's inputs (nodes, istiod) are read per view: late, and said so
      const f = fleet.value as Awaited<ReturnType<typeof timelineFleetOf>>;
      expect(f.rows.length).toBeGreaterThan(10);
      expect(f.late?.map((l) => l.part)).toEqual(['sidecar injection (istiod setting, nodes)']);
      expect(f.injection).toBeNull();
    } finally {
      rt.stop();
      demo.sim.faults.latencyMs = 0;
    }
  });

  it('with a deadline longer than the latency, every part is read and nothing is late', async () => {
    demo.sim.faults.latencyMs = 500;
    const rt = runtimeOn(demo.kc, {
      // longer than any latency, however busy the machine: nothing may be late
      settings: { MESHDX_VIEW_DEADLINE_MS: NO_DEADLINE_FOR_COMPLETENESS, MESHDX_CLOCK: 'objects' },
    }).start();
    try {
      const fleet = await timelineFleetOf(rt);
      expect(fleet.late).toBeUndefined();
      expect(fleet.injection).not.toBeNull();
      const inv = await inventoryOf(rt);
      expect(inv.totals.pods).toBe(rt.cache.livePods().length);
    } finally {
      rt.stop();
      demo.sim.faults.latencyMs = 0;
    }
  });
});
