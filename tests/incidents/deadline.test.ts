import { describe, expect, it } from 'vitest';
import { isRequestError } from '../../lib/api/request-error';
import { incidentsByDeadline } from '../../server/screens/incidents/incidents';
import { runtimeOn, simOnly } from '../../test-support/simulator';

/**
 * Incidents on an API server slower than the view's deadline (the simulator's latency fault, the
 * first pod list included): the request waits on one deadline, so its 503 names every part that
 * was late by then, the pod list the analysis needs as well as the analysis itself.
 */
const demo = simOnly('demo');

describe('Incidents by its deadline on a slow API server', () => {
  it('answers 503 naming the analysis and the pod list it waited for, under one deadline', async () => {
    demo.sim.faults.latencyMs = 1_500;
    const rt = runtimeOn(demo.kc, {
      settings: { MESHDX_VIEW_DEADLINE_MS: 700, MESHDX_CLOCK: 'objects' },
    }).start();
    try {
      const e = await incidentsByDeadline(rt, {}).catch((x: unknown) => x);
      expect(isRequestError(e)).toBe(true);
      if (!isRequestError(e)) return;
      expect(e.status).toBe(503);
      expect(e.message).toMatch(/^Incidents answered at its 700 ms deadline without /);
      expect(e.message).toContain('the incident analysis (not read within the 700 ms deadline');
      expect(e.message).toContain('pods (not read within the 700 ms deadline');
    } finally {
      rt.stop();
      demo.sim.faults.latencyMs = 0;
    }
  }, 30_000);
});
