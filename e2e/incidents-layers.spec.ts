import { expect, test } from '@playwright/test';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { base, DEMO_DATA, PORTS, simUrlOf, snap } from './support';
import { fmtDuration } from '../lib/incidents/format';
import { withContext } from '../lib/api/context';

/**
 * The layer that held a gone pod's IP, in Incidents, after a rollout an SRE starts with kubectl:
 * phantom-503-slow-ack (one checkout proxy ACKs each push 20 s late) on the demo whose
 * Deployments the specs roll (playwright.config.ts: the 'rollouts' project). The clock is moved
 * past the scenario's own rollout first, so every failure of the window is the kubectl rollout's.
 */
const demo = base(PORTS.rolloutDemo);
const SCENARIO = 'phantom-503-slow-ack';
const CONTEXT = `meshdx-sim-${SCENARIO}`;
const run = promisify(execFile);

interface LayerRow {
  ip: string;
  pod: string;
  client: string;
  goneAt: number | null;
  held: string | null;
  heldMs: number | null;
  steps: { layer: string; delayMs: number | null; failures: number }[];
  failures: number;
  sentence: string;
}

async function simNow(): Promise<number> {
  const sim = simUrlOf(SCENARIO, DEMO_DATA.rolloutDemo);
  const info = (await (await fetch(`${sim}/_sim/info`)).json()) as { clock: { now: string } };
  return Date.parse(info.clock.now);
}

/**
 * Moves the cluster's clock `ms` in steps of `stepMs`, pausing `pauseMs` after each so the
 * dashboard's watches and its layer sampler (every MESHDX_LAYER_SAMPLE_MS, 2 s of wall time)
 * see the steps; a slower machine reads the layers less often, which the sentence says.
 */
async function advance(ms: number, stepMs: number, pauseMs: number): Promise<void> {
  const sim = simUrlOf(SCENARIO, DEMO_DATA.rolloutDemo);
  for (let done = 0; done < ms; done += stepMs) {
    const res = await fetch(`${sim}/_sim/advance?ms=${stepMs}`, { method: 'POST' });
    expect(res.status).toBe(200);
    await new Promise((r) => setTimeout(r, pauseMs));
  }
}

test('after a kubectl rollout, Incidents names the layer that held each gone pod’s IP', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const start = await simNow();
  const from = new Date(start + 120_000).toISOString();
  const to = new Date(start + 240_000).toISOString();
  const query = `namespace=shop&from=${from}&to=${to}`;
  const api = withContext(`${demo}/api/incidents?${query}`, CONTEXT);
  // the cluster's runtime (its pod watch, its layer sampler) runs from its first view
  expect((await fetch(api)).status).toBe(200);
  // past the scenario's own rollout and scale-down, and the slow client's ACKs of them
  await advance(130_000, 5000, 150);

  const kubeconfig = path.join(DEMO_DATA.rolloutDemo, `sim-${SCENARIO}.kubeconfig`);
  await run('kubectl', [
    '--kubeconfig',
    kubeconfig,
    '-n',
    'shop',
    'rollout',
    'restart',
    'deployment/payments',
  ]);
  // the controller replaces a pod every 3 s; the slow client keeps each 20 s after its deletion
  await advance(60_000, 2000, 2200);

  let rows: LayerRow[] = [];
  let all: LayerRow[] = [];
  await expect
    .poll(
      async () => {
        const v = (await (await fetch(api)).json()) as { layers: { timelines: LayerRow[] } };
        all = v.layers.timelines;
        rows = all.filter((t) => t.goneAt !== null && t.held === 'envoy');
        return rows.length;
      },
      { message: "a gone pod's IP held by a client's Envoy", timeout: 60_000, intervals: [1000] },
    )
    .toBeGreaterThan(0);
  // the slow client held every replaced pod: the longest held first
  const row = rows[0] as LayerRow;
  expect(row.pod).toMatch(/^shop\/payments-/);
  expect(row.heldMs ?? 0).toBeGreaterThan(10_000);
  // the slow client let go of every replaced pod about 20 s after its deletion started, however
  // the reads split that time between the layers
  const slow = all.filter((t) => t.client === row.client && t.pod.startsWith('shop/payments-'));
  expect(slow.length).toBeGreaterThanOrEqual(5);
  for (const t of slow) {
    const total = t.steps.reduce((a, s) => a + (s.delayMs ?? 0), 0);
    expect(total, t.sentence).toBeGreaterThan(15_000);
  }

  await page.goto(`${demo}${withContext(`/incidents?${query}`, CONTEXT)}`);
  const card = page.getByTestId('incident-layers');
  await expect(card).toBeVisible();
  const name = row.pod.slice(row.pod.indexOf('/') + 1);
  const client = row.client.slice(row.client.indexOf('/') + 1);
  const tr = card
    .getByTestId('layer-row')
    .filter({ hasText: `${name} (${row.ip})` })
    .filter({ hasText: client });
  await expect(tr).toHaveCount(1);
  await tr.scrollIntoViewIfNeeded();
  // the sentence to paste, as the API gave it, names the pod, its IP, the client and its ACK
  const sentence = tr.getByTestId('layer-sentence');
  await expect(sentence).toHaveText(row.sentence);
  expect(row.sentence).toContain(`${name} (${row.ip}):`);
  expect(row.sentence).toMatch(new RegExp(`${client} ACKed \\d+\\.\\d s later: its Envoy kept`));
  expect(row.sentence).toContain("Held longest by the client's Envoy");
  // the card agrees with its table: the held cell and each layer's cell carry the same delays
  const cells = tr.locator('td');
  await expect(cells.nth(2)).toHaveText(`client's Envoy ${fmtDuration(row.heldMs ?? 0)}`);
  for (const [i, s] of row.steps.entries()) {
    const text = `${s.delayMs !== null ? `+${fmtDuration(s.delayMs)}` : 'unknown'}${s.failures > 0 ? ` · ${s.failures} failed` : ''}`;
    await expect(cells.nth(3 + i)).toHaveText(text);
  }
  const envoyStep = row.steps[2];
  const said = /ACKed (\d+\.\d) s later/.exec(row.sentence)?.[1];
  expect(Number(said)).toBeCloseTo((envoyStep?.delayMs ?? 0) / 1000, 1);
  const inHeld = /: (\d+) of (\d+) failures fell there/.exec(row.sentence);
  expect(Number(inHeld?.[1])).toBe(envoyStep?.failures);
  expect(Number(inHeld?.[2])).toBe(row.failures);
  await snap(page, 'incidents-layers-after-rollout');
});
