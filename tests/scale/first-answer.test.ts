import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asMeshdx } from '../../server/auth/identity';
import { resetRegistry } from '../../server/runtime/registry';
import { getInventory, getPodList } from '../../server/screens/overview/inventory';
import { getTimelinePage } from '../../server/screens/timelines/timelines';
import { startSimulator, type RunningSimulator } from '../../server/sim/index';

/**
 * Right after a restart, while a big cluster's first pod list still runs, Overview, Pods and
 * Timelines answer from the pods read so far (after MESHDX_FIRST_ANSWER_MS), saying how far the
 * list got, and fill in once it is in. The simulated API server answers every request 300 ms
 * late, so 3,000 pods (six pages) take about two seconds to list.
 */
const PODS = 3_000;
let sim: RunningSimulator;
let dir: string;
const saved = { ...process.env };

beforeAll(async () => {
  sim = await startSimulator({
    scenario: 'scale',
    port: 0,
    clock: { fixed: new Date('2026-11-01T12:00:00Z') },
    params: { pods: String(PODS), services: '100', proxies: '1500' },
    faults: { latencyMs: 300 },
  });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-first-answer-'));
  const file = path.join(dir, 'kubeconfig');
  fs.writeFileSync(file, sim.kubeconfigYaml);
  resetRegistry();
  process.env.MESHDX_KUBECONFIG = file;
  process.env.MESHDX_DB = ':memory:';
  process.env.MESHDX_FIRST_ANSWER_MS = '700';
  delete process.env.MESHDX_CONTEXT;
  delete process.env.MESHDX_PROMETHEUS;
});

afterAll(async () => {
  resetRegistry();
  process.env = { ...saved };
  await sim?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the first answer while the first pod list runs', () => {
  it('answers from the pods read so far, says how far the list got, then fills in', async () => {
    const scope = asMeshdx(null);
    const t0 = Date.now();
    const first = await getInventory(scope);
    expect(Date.now() - t0).toBeLessThan(PODS); // well before the list's ~2 s at 300 ms a page
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
      .poll(async () => (await getInventory(scope)).late, { timeout: 20_000 })
      .toBeUndefined();
    const inventory = await getInventory(scope);
    // the scenario's pods and the control plane's
    expect(inventory.totals.pods).toBeGreaterThanOrEqual(PODS);
    const pods = await getPodList(scope, { limit: 10 });
    expect(pods.total).toBe(inventory.totals.pods);
    expect(pods.late).toBeUndefined();
    const whole = await getTimelinePage(scope, {});
    expect(whole.late?.map((l) => l.part) ?? []).not.toContain('pods');
    expect(whole.page.matched).toBeGreaterThanOrEqual(timelines.page.matched);
  });
});
