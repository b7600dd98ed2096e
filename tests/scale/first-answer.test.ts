import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asMeshdx } from '../../server/auth/identity';
import { getInventory, getPodList } from '../../server/screens/overview/inventory';
import { getTimelinePage, timelinesPageNow } from '../../server/screens/timelines/timelines';
import { runtimeOnSimulator, type SimRuntime } from '../../test-support/sim-runtime';
import { EVENT_WAIT_GUARD_MS, GATHER_GUARD_MS } from '../../test-support/deadlines';

/**
 * Right after a restart, while a big cluster's first pod list still runs, Overview, Pods and
 * Timelines answer from the pods read so far (after MESHDX_FIRST_ANSWER_MS), saying how far the
 * list got, and fill in once it is in. The simulated API server answers every request a second
 * late, so 5,000 pods (ten pages) take ten seconds or more to list.
 *
 * The wait for the first answer is long (FIRST_ANSWER_MS) so that a busy machine's first page is
 * in by then too; the views do not wait it out: after the first page the list's pace says it
 * cannot end within it, and they answer. (With 1.5 s, a loaded machine had no page by then and
 * the view waited for the whole list, past its deadline.)
 */
const PODS = 5_000;
const PAGE_LATENCY_MS = 1_000;
/** Less than the ten pages take, however fast the machine; more than one page, however slow. */
const FIRST_ANSWER_MS = 8 * PAGE_LATENCY_MS;
let on: SimRuntime;

beforeAll(async () => {
  on = await runtimeOnSimulator({
    scenario: 'scale',
    params: { pods: String(PODS), services: '100', proxies: '2500' },
    faults: { latencyMs: PAGE_LATENCY_MS },
    env: { MESHDX_FIRST_ANSWER_MS: String(FIRST_ANSWER_MS) },
  });
}, GATHER_GUARD_MS);

afterAll(() => on?.close());

describe('the first answer while the first pod list runs', () => {
  it('answers from the pods read so far, says how far the list got, then fills in', async () => {
    const scope = asMeshdx(null);
    // a server-rendered Timelines page leaves the fleet to the browser while the list runs
    expect(timelinesPageNow(scope, {})).toBeNull();
    const first = await getInventory(scope);
    expect(first.late).toEqual([
      expect.objectContaining({
        part: 'pods',
        detail: expect.stringMatching(
          /the pod list is still running \([\d,]+ pods read in \d+ page\(s\), about [\d,]+ to go\): shown are the pods read so far/,
        ),
      }),
    ]);
    expect(first.totals.pods).toBeGreaterThan(0);
    expect(first.totals.pods).toBeLessThan(PODS);

    const timelines = await getTimelinePage(scope, {});
    expect(timelines.late?.map((l) => l.part)).toContain('pods');

    // once the list is in, the same views answer whole, with nothing late
    await expect
      .poll(async () => (await getInventory(scope)).late, { timeout: EVENT_WAIT_GUARD_MS })
      .toBeUndefined();
    const inventory = await getInventory(scope);
    // the scenario's pods and the control plane's
    expect(inventory.totals.pods).toBeGreaterThanOrEqual(PODS);
    const pods = await getPodList(scope, { limit: 10 });
    expect(pods.total).toBe(inventory.totals.pods);
    expect(pods.late).toBeUndefined();
    const whole = await getTimelinePage(scope, {});
    // once listed, the page renders the fleet's first page itself: the same page the API gives
    const now = await timelinesPageNow(scope, {});
    expect(now?.rows.map((r) => r.uid)).toEqual(whole.rows.map((r) => r.uid));
    expect(now?.page).toEqual(whole.page);
    expect(whole.late?.map((l) => l.part) ?? []).not.toContain('pods');
    expect(whole.page.matched).toBeGreaterThanOrEqual(timelines.page.matched);
  });
});
