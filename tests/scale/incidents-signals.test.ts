import { describe, expect, it } from 'vitest';
import { incidentsOf } from '../../server/screens/incidents/incidents';
import { runtimeOn, simOnly } from '../../test-support/simulator';

/**
 * Incidents asks its candidate clients for their own failure counts before choosing whose logs
 * to read. Through a slow API server that asking must not cost the view its deadline: past half
 * of it, the clients are chosen by pod churn alone and the page says so.
 */
const demo = simOnly('demo');

describe('Incidents on a slow API server', () => {
  it('chooses clients by churn alone when their own counts are late, and says so', async () => {
    const rt = runtimeOn(demo.kc, {
      settings: { MESHDX_VIEW_DEADLINE_MS: 6_000, MESHDX_CLOCK: 'objects' },
    }).start();
    try {
      await rt.pods.whenListed();
      demo.sim.faults.latencyMs = 400;
      const view = await incidentsOf(rt, {});
      expect(view.clients.source).toBe('pod churn only');
      expect(view.clients.note).toMatch(
        /asking \d+ client proxies for their own failure counts took longer than \d+ ms \(half of what was left of the view's deadline\)/,
      );
      expect(view.clients.chosen.length).toBeGreaterThan(0);
    } finally {
      demo.sim.faults.latencyMs = 0;
      rt.stop();
    }
  }, 30_000);
});
