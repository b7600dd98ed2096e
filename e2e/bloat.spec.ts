import { expect, test } from '@playwright/test';
import { base, PORTS, snap } from './support';

const demo = base(PORTS.demo);

/**
 * The demo dashboard runs without Prometheus: the Scoping page's bloat chart says it needs one
 * and how to set it, never an empty chart. (The chart with real data is covered by
 * tests/bloat/bloat-prometheus.test.ts against a real Prometheus.)
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
