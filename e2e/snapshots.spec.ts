import { expect, test } from '@playwright/test';
import { base, PORTS, snap } from './support';

const demo = base(PORTS.demo);

test.describe.configure({ mode: 'serial' });

test('a Grafana link opens as absolute times; Share freezes Incidents and /snapshots/ID renders it', async ({
  page,
}) => {
  test.setTimeout(180_000);
  // what a Grafana data link or an alert annotation sends: relative to the cluster's clock
  await page.goto(`${demo}/incidents?namespace=shop&from=now-15m&to=now`);
  await expect(page).toHaveURL(/from=2026-11-01T\d\d%3A\d\d%3A\d\d\.\d{3}Z&to=2026-11-01T/);
  const frozenUrl = new URL(page.url());
  await expect(page.getByTestId('incident-summary')).toBeVisible({ timeout: 60_000 });
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByTestId('share-button').click();
  const link = page.getByTestId('share-link').locator('a');
  await expect(link).toHaveAttribute('href', /^\/snapshots\/[A-Za-z0-9_-]{22}$/);
  const href = (await link.getAttribute('href')) ?? '';
  const id = href.split('/').pop() ?? '';

  // the JSON it keeps is a view model, the same bytes every time it is asked
  const one = Buffer.from(await (await fetch(`${demo}/api/snapshots/${id}`)).arrayBuffer());
  const two = Buffer.from(await (await fetch(`${demo}/api/snapshots/${id}`)).arrayBuffer());
  expect(one.equals(two)).toBe(true);
  const frozen = JSON.parse(one.toString('utf8')) as {
    window: { from: string; to: string };
    totals: { shown: number };
  };
  expect(frozen.window.from).toBe(frozenUrl.searchParams.get('from'));

  await page.goto(`${demo}${href}`);
  const banner = page.getByTestId('snapshot-banner');
  await expect(banner).toContainText('Snapshot, read-only');
  await expect(banner).toContainText('meshdx (no sign-in)');
  await expect(page.getByTestId('snapshot-from')).toContainText('/incidents?namespace=shop');
  await expect(page.getByTestId('incident-summary')).toBeVisible();
  await expect(page.getByTestId('incident-requests')).toContainText(
    `Failing requests (${frozen.totals.shown}`,
  );
  // read-only: no filters, no live mode, no Share
  await expect(page.getByTestId('filter-namespace')).toHaveCount(0);
  await expect(page.getByTestId('share-button')).toHaveCount(0);
  await snap(page, 'snapshot-incidents');

  await page.goto(`${demo}/snapshots`);
  await expect(page.getByTestId('snapshot-list')).toContainText(frozen.window.from.slice(0, 10));
  await expect(page.locator(`a[href="${href}"]`)).toBeVisible();
});

test('Share on Timelines freezes its page, rendered read-only', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto(`${demo}/timelines?namespace=shop`);
  await expect(page.getByTestId('stat-pods')).toBeVisible({ timeout: 60_000 });
  const pods = (await page.getByTestId('stat-pods').textContent()) ?? '';
  await page.getByTestId('share-button').click();
  const link = page.getByTestId('share-link').locator('a');
  await expect(link).toHaveAttribute('href', /^\/snapshots\//);
  await page.goto(`${demo}${(await link.getAttribute('href')) ?? ''}`);
  await expect(page.getByTestId('snapshot-banner')).toContainText('/timelines?namespace=shop');
  await expect(page.getByTestId('frozen-timelines')).toBeVisible();
  await expect(page.getByTestId('stat-pods')).toHaveText(pods);
  await snap(page, 'snapshot-timelines');
});

test('an unknown snapshot id says so, naming it', async ({ page }) => {
  await page.goto(`${demo}/snapshots/AAAAAAAAAAAAAAAAAAAAAA`);
  await expect(page.getByTestId('error-panel')).toContainText(
    'no snapshot "AAAAAAAAAAAAAAAAAAAAAA"',
  );
  const res = await fetch(`${demo}/api/snapshots/AAAAAAAAAAAAAAAAAAAAAA`, { method: 'DELETE' });
  expect(res.status).toBe(404);
});
