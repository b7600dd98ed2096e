import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asMeshdx } from '../../server/auth/identity';
import { getFindings, getWholeFindings } from '../../server/screens/findings/findings';
import { runtimeOnSimulator, type SimRuntime } from '../../test-support/sim-runtime';

/**
 * Right after a restart, while the first pod list still runs, the first Findings answer is made
 * of the pods read so far (after MESHDX_FIRST_ANSWER_MS), with the config findings of the other
 * lists, and says so: the pods are late (how far the list got) and not a whole source. The
 * simulated API server answers every request 800 ms late, so 4,000 pods (eight pages) take
 * six seconds or more to list.
 */
const PODS = 4_000;
let on: SimRuntime;

beforeAll(async () => {
  on = await runtimeOnSimulator({
    scenario: 'scale',
    params: { pods: String(PODS), services: '20', proxies: '10' },
    faults: { latencyMs: 800 },
    env: { MESHDX_FIRST_ANSWER_MS: '1000' },
  });
});

afterAll(() => on?.close());

describe('the first Findings answer while the first pod list runs', () => {
  it('is made of the pods read so far, says so, and the report fills in', async () => {
    const scope = asMeshdx(null);
    const t0 = Date.now();
    const first = await getFindings(scope);
    const late = new Map((first.late ?? []).map((l) => [l.part, l.detail]));
    expect(
      late.get('pods'),
      `${Date.now() - t0} ms ${JSON.stringify([first.late, first.sources?.[0]])}`,
    ).toMatch(
      /^the pod list is still running \([\d,]+ pods read in \d+ page\(s\)(, about [\d,]+ to go)?\): shown are the findings of the pods read so far/,
    );
    const pods = (first.sources ?? []).find((s) => s.name === 'pods');
    expect(pods?.ok).toBe(false);
    expect(pods?.detail).toMatch(/^[\d,]+ pods read so far: the pod list is still running/);
    const read = Number((pods?.detail ?? '').replace(/ pods read so far.*$/, '').replace(/,/g, ''));
    expect(read).toBeGreaterThan(0);
    expect(read).toBeLessThan(PODS);
    // every analysis is still to run: named, never shown as none found
    for (const part of ['timelines analysis', 'scoping analysis', 'incidents analysis'])
      expect(late.get(part), part).toMatch(/still running/);

    // the whole report has every pod
    const whole = await getWholeFindings(scope);
    const all = (whole.sources ?? []).find((s) => s.name === 'pods');
    expect(all?.ok).toBe(true);
    expect(Number((all?.detail ?? '').replace(/ pods$/, ''))).toBeGreaterThanOrEqual(PODS);
    expect((whole.late ?? []).map((l) => l.part)).not.toContain('pods');
  }, 90_000);
});
