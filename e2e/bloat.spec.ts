import { expect, test } from '@playwright/test';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { BloatViewSchema, type BloatView } from '../lib/api/bloat-view';
import { markerEffects } from '../lib/bloat/effects';
import { requirePrometheus } from '../test-support/prometheus';
import { base, PORTS, PROMETHEUS_DEMO_KUBECONFIG, snap } from './support';

const demo = base(PORTS.demo);

/**
 * The demo dashboard runs without Prometheus: the Scoping page's bloat chart says it needs one
 * and how to set it, never an empty chart. (With a real Prometheus, see the last test.)
 */
test('the bloat chart says it needs Prometheus and how to set it', async ({ page }) => {
  await page.goto(`${demo}/scoping`);
  const card = page.getByTestId('scoping-bloat');
  await expect(card).toBeVisible();
  const needs = card.getByTestId('bloat-needs-prometheus');
  await expect(needs).toBeVisible();
  await expect(needs).toContainText('MESHDX_PROMETHEUS');
  await expect(card.getByTestId('bloat-chart')).toHaveCount(0);
  await card.scrollIntoViewIfNeeded();
  await snap(page, 'bloat-needs-prometheus');
});

test('the bloat API names a wrong window or a missing namespace', async ({ request }) => {
  const bad = await request.get(
    `${demo}/api/scoping/bloat?namespace=shop&from=2026-11-01T12:00:00&to=2026-11-01T13:00:00Z`,
  );
  expect(bad.status()).toBe(400);
  expect(JSON.stringify(await bad.json())).toContain('from');
  const missing = await request.get(`${demo}/api/scoping/bloat`);
  expect(missing.status()).toBe(400);
  expect(JSON.stringify(await missing.json())).toContain('namespace');
  const half = await request.get(
    `${demo}/api/scoping/bloat?namespace=shop&from=2026-11-01T12:00:00Z`,
  );
  expect(half.status()).toBe(400);
  expect(JSON.stringify(await half.json())).toContain('to');
  const ok = await request.get(`${demo}/api/scoping/bloat?namespace=shop`);
  expect(ok.status()).toBe(200);
  expect(((await ok.json()) as { state: string }).state).toBe('needs-prometheus');
});

const withProm = base(PORTS.prometheus);
const execFileP = promisify(execFile);

interface ScopingNs {
  name: string;
  proxies: number;
  defaultSidecar: { source: string };
}
interface Generated {
  namespace: string;
  level: string;
  yaml: string;
}

/**
 * With a real Prometheus scraping the demo every second: a Sidecar applied with kubectl to a
 * namespace without one makes the chart drop after its marker, to Scoping's figure for the scope
 * now in force, and the page says so in numbers.
 */
test('the bloat chart shows the drop after a Sidecar applied with kubectl', async ({
  page,
  request,
}) => {
  requirePrometheus();
  test.setTimeout(240_000);
  const scoping = async () =>
    (await (await request.get(`${withProm}/api/scoping`)).json()) as {
      report: { namespaces: ScopingNs[]; generated: Generated[] };
    };
  const { report } = await scoping();
  const ns = report.namespaces.find((n) => n.defaultSidecar.source === 'none' && n.proxies >= 4);
  expect(ns, 'a namespace of proxies without a Sidecar').toBeDefined();
  const name = (ns as ScopingNs).name;
  const bloat = async () =>
    BloatViewSchema.parse(
      await (await request.get(`${withProm}/api/scoping/bloat?namespace=${name}`)).json(),
    );
  const reported = (v: BloatView) =>
    v.state === 'ok' ? v.line.points.filter((p) => p.avg !== null) : [];
  // a few steps of the unscoped namespace first
  await expect
    .poll(async () => reported(await bloat()).length, { timeout: 90_000 })
    .toBeGreaterThan(2);
  const proposal = report.generated.find((g) => g.namespace === name && g.level === 'namespace');
  expect(proposal, `Scoping proposes a Sidecar for ${name}`).toBeDefined();
  const apply = execFileP('kubectl', [
    '--kubeconfig',
    PROMETHEUS_DEMO_KUBECONFIG,
    'apply',
    '-f',
    '-',
  ]);
  apply.child.stdin?.end((proposal as Generated).yaml);
  await apply;
  // until a step after the marker has seen the new scope
  await expect
    .poll(
      async () => {
        const v = await bloat();
        if (v.state !== 'ok' || v.markers.length === 0) return null;
        const [e] = markerEffects(v.line.points, v.markers);
        return e && e.before !== null && e.after !== null && e.after < e.before ? e : null;
      },
      { timeout: 90_000 },
    )
    .not.toBeNull();
  const v = await bloat();
  if (v.state !== 'ok') throw new Error(`bloat view is ${v.state}`);
  const [effect] = markerEffects(v.line.points, v.markers);
  // the measured line lands on Scoping's figure for the Sidecar now in force
  expect(v.prediction.modelled).not.toBeNull();
  expect(effect?.after).toBeCloseTo(v.prediction.modelled as number, 0);

  await page.goto(`${withProm}/scoping?namespace=${name}`);
  const card = page.getByTestId('scoping-bloat');
  await expect(card.getByTestId('bloat-chart')).toBeVisible();
  const marker = card.getByTestId('bloat-marker');
  await expect(marker).toContainText(`Sidecar ${name}/default`);
  const text = (await marker.getByTestId('bloat-marker-effect').textContent()) ?? '';
  const m = /per proxy ([\d.]+) before, ([\d.]+) after/.exec(text);
  expect(m, text).not.toBeNull();
  expect(Number(m?.[2])).toBeLessThan(Number(m?.[1]));
  await expect(card).toContainText(`Scoping, scope in force: ${v.prediction.modelled}`);
  // the chart draws the marker and the line (the drop is read above; the screenshot shows it)
  await expect(card.locator('.recharts-reference-line')).not.toHaveCount(0);
  await expect(card.locator('.recharts-line-curve').first()).toBeVisible();
  await card.scrollIntoViewIfNeeded();
  await snap(page, 'bloat-prometheus-drop');
});
