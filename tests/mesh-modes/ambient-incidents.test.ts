/**
 * Phantom pods in ambient: the ztunnel that did not follow the `api` rollout keeps connecting
 * to the old api pods' IPs. Incidents reads the ztunnels' logs next to the sidecars' and maps
 * each failed connection's destination (dst.hbone_addr, else dst.addr) to the pod that held
 * the IP at that moment: pods that were already gone.
 */
import { describe, expect, it } from 'vitest';
import { IncidentsViewSchema } from '../../lib/api/incidents';
import { isZtunnelPod } from '../../lib/dataplane/mode';
import { incidentsOf } from '../../server/screens/incidents/incidents';
import { simClient } from '../../test-support/simulator';
import { EVENT_WAIT_GUARD_MS } from '../../test-support/deadlines';

const c = simClient('ambient');

describe('ztunnel connections to pods that were already gone', () => {
  it('reads the ztunnels as log sources and attributes failed connections to the gone api pods', async () => {
    await c.runtime.pods.whenListed();
    await c.runtime.recorder.ready;
    // the api rollout happens 30 s after the start: let meshdx watch it happen, step by step
    for (let i = 0; i < 30; i++) {
      c.sim.clock.advance(5_000);
      await new Promise((r) => setTimeout(r, 20));
    }
    await expect
      .poll(() => [...c.runtime.store.intervals()].filter((iv) => iv.goneAt !== null).length, {
        timeout: EVENT_WAIT_GUARD_MS,
      })
      .toBeGreaterThanOrEqual(3);
    const view = IncidentsViewSchema.parse(await incidentsOf(c.runtime, {}));
    const ztunnels = c.cache.livePods().filter((p) => isZtunnelPod(p));
    expect(ztunnels.length).toBe(3);
    const sources = new Set(view.sources.map((s) => s.source));
    for (const z of ztunnels) expect(sources).toContain(`istio-system/${z.metadata.name}`);
    const fromZtunnel = view.requests.filter((r) => r.source.startsWith('istio-system/ztunnel'));
    expect(fromZtunnel.length).toBeGreaterThan(0);
    const gone = fromZtunnel.filter((r) => r.state === 'terminated');
    expect(gone.length).toBeGreaterThan(0);
    for (const r of gone) {
      expect(r.pod?.name).toMatch(/^api-/);
      expect(r.pod?.namespace).toBe('mesh-ambient');
      expect(r.afterTerminationMs).toBeGreaterThan(0);
    }
  });
});
