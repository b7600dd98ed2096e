import { expect, test } from '@playwright/test';
import { base, PORTS, simUrl, simUrlOf, snap } from './support';

const demo = base(PORTS.demo);
const DEMO = 'meshdx-sim-demo';
const PHANTOM = 'meshdx-sim-phantom-503';

interface SimInfo {
  requests: Record<string, number>;
  openWatches: Record<string, number>;
}

/**
 * The watches open on a simulated API server now. Not the watch requests made: each watch ends
 * at its timeoutSeconds (5-6 min) and is resumed, so a run that reaches this spec later than that
 * has made two, and still holds one.
 */
async function openWatchesOf(url: string): Promise<Record<string, number>> {
  return ((await (await fetch(`${url}/_sim/info`)).json()) as SimInfo).openWatches;
}

test.describe.configure({ mode: 'serial' });

test('GET /api/contexts lists both simulated clusters, the first one current', async () => {
  const res = await fetch(`${demo}/api/contexts`);
  expect(res.status).toBe(200);
  const body = (await res.json()) as {
    default: string;
    contexts: { name: string; server: string; current: boolean }[];
  };
  expect(body.default).toBe(DEMO);
  expect(body.contexts.map((c) => c.name).sort()).toEqual([
    DEMO,
    PHANTOM,
    'meshdx-sim-phantom-cross-ns',
  ]);
  expect(body.contexts.find((c) => c.name === PHANTOM)?.server).toBe(simUrlOf('phantom-503'));
});

test('an unknown context is a 404 that lists the known ones', async () => {
  const res = await fetch(`${demo}/api/inventory?context=prod-nowhere`);
  expect(res.status).toBe(404);
  const body = (await res.json()) as { error: { code: string; message: string; hint?: string } };
  expect(body.error.code).toBe('UNKNOWN_CONTEXT');
  expect(body.error.hint).toContain(DEMO);
  expect(body.error.hint).toContain(PHANTOM);
});

test('switching context in the header changes every view and the URL', async ({ page }) => {
  await page.goto(`${demo}/`);
  await expect(page.getByTestId('cluster-label')).toHaveText(DEMO);
  const demoPods = await page.getByTestId('stat-pods').textContent();
  await page.getByTestId('context-picker').selectOption(PHANTOM);
  await expect(page).toHaveURL(new RegExp(`[?&]context=${PHANTOM}`));
  await expect(page.getByTestId('cluster-label')).toHaveText(PHANTOM);
  // the phantom-503 cluster holds fewer pods than the demo's
  const phantomPods = (
    (await (await fetch(`${simUrlOf('phantom-503')}/api/v1/pods`)).json()) as { items: unknown[] }
  ).items.length;
  await expect(page.getByTestId('stat-pods')).toContainText(String(phantomPods));
  expect(await page.getByTestId('stat-pods').textContent()).not.toBe(demoPods);
  // the context travels with the navigation to every view
  for (const view of ['Timelines', 'Proxies', 'Scoping', '503 Incidents', 'Findings']) {
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: view }).click();
    await expect(page).toHaveURL(new RegExp(`[?&]context=${PHANTOM}`));
    await expect(page.getByTestId('cluster-label')).toHaveText(PHANTOM);
  }
  await snap(page, 'findings-other-context');
});

test('a deep link with ?context= reopens the same cluster', async ({ page }) => {
  await page.goto(`${demo}/timelines?context=${PHANTOM}&namespace=shop`);
  await expect(page.getByTestId('cluster-label')).toHaveText(PHANTOM);
  const res = await fetch(`${demo}/api/timelines?context=${PHANTOM}`);
  expect(res.status).toBe(200);
  const fleet = (await res.json()) as { rows: { namespace: string }[] };
  expect(fleet.rows.length).toBeGreaterThan(0);
  expect(fleet.rows.every((r) => r.namespace === 'shop' || r.namespace === 'istio-system')).toBe(
    true,
  );
});

test('one pod watch and one event watch per cluster, whatever the views ask', async () => {
  // the views that read the cluster, of both clusters, twice
  for (let i = 0; i < 2; i++) {
    for (const ctx of [DEMO, PHANTOM]) {
      for (const api of ['inventory', 'timelines', 'incidents', 'cluster']) {
        const res = await fetch(`${demo}/api/${api}?context=${ctx}`);
        expect(res.status, `${api} on ${ctx}`).toBe(200);
      }
    }
  }
  for (const url of [simUrl(), simUrlOf('phantom-503')]) {
    // polled: for the instant a watch is resumed, none is open
    await expect.poll(async () => (await openWatchesOf(url))['watch pods'], url).toBe(1);
    await expect.poll(async () => (await openWatchesOf(url))['watch events'], url).toBe(1);
  }
});

test('the logo keeps the context, the header says the cluster is simulated, a skip link leads to the view', async ({
  page,
}) => {
  await page.goto(`${demo}/timelines?context=${PHANTOM}`);
  await expect(page.getByTestId('cluster-platform')).toHaveText(
    'simulated cluster (meshdx simulator)',
  );
  // the sorted column says so to a screen reader, the others that they can be sorted
  const headers = page.locator('[data-testid="pods-table"] [role="columnheader"]');
  await expect(headers.and(page.locator('[aria-sort="ascending"]'))).toHaveCount(1);
  expect(await headers.and(page.locator('[aria-sort="none"]')).count()).toBeGreaterThan(0);
  await page.getByTestId('home-link').click();
  await expect(page).toHaveURL(new RegExp(`/\\?context=${PHANTOM}$`));
  await expect(page.getByTestId('cluster-label')).toHaveText(PHANTOM);
  // on a page just opened, the first Tab reaches the skip link
  await page.reload();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('skip-link')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('main#main')).toBeFocused();
});
