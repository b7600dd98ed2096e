import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { base, PORTS, snap } from './support';
import { podHref } from '../lib/refs/pod-ref';

const demo = base(PORTS.demo);

/**
 * axe's serious and critical findings on the page as it is now (WCAG 2.1 A and AA), on the
 * whole page or only on `regions` (selectors): the state a test opened, where the rest of the
 * page is the view a11y.spec.ts already checks whole (axe takes seconds on a view of 100 rows).
 */
async function violations(page: Page, regions: readonly string[] = []) {
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  for (const r of regions) builder = builder.include(r);
  const result = await builder.analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
    }));
}

async function loaded(page: Page) {
  await expect(page.getByTestId('loading')).toHaveCount(0, { timeout: 30_000 });
}

async function expectClean(page: Page, regions: readonly string[] = []) {
  const bad = await violations(page, regions);
  expect(bad, JSON.stringify(bad, null, 2)).toEqual([]);
}

const firstRow = (page: Page, table: string) =>
  page.locator(`[data-testid="${table}"] [role="row"][data-row-key]`).first();

test('proxies: a selected row and its open detail', async ({ page }) => {
  await page.goto(`${demo}/proxies`);
  await loaded(page);
  const row = firstRow(page, 'proxies-table');
  await row.click();
  await expect(row).toHaveAttribute('aria-selected', 'true');
  const detail = page.getByTestId('proxy-detail');
  await expect(detail.getByTestId('cluster-table')).toBeVisible({ timeout: 30_000 });
  // the detail opened in view, not below the table
  const box = await detail.boundingBox();
  expect(box).not.toBeNull();
  expect(box!.y).toBeLessThan(900);
  expect(box!.y + 40).toBeGreaterThan(0);
  await loaded(page);
  await expectClean(page);
  await snap(page, 'a11y-proxies-detail');
});

test("timelines: a pod's timeline open and filters set", async ({ page }) => {
  await page.goto(`${demo}/timelines?verdict=race`);
  await loaded(page);
  await firstRow(page, 'pods-table').click();
  await expect(page).toHaveURL(/pod=/);
  await expect(page.getByTestId('gantt-chart').locator('svg').first()).toBeVisible({
    timeout: 30_000,
  });
  await loaded(page);
  await expectClean(page);
  // no two line labels of the chart overlap (Recharts draws them in a layer of their own)
  const boxes = await page
    .getByTestId('gantt-chart')
    .locator('text.recharts-label')
    .evaluateAll((els) =>
      els.map((e) => {
        const r = e.getBoundingClientRect();
        return { l: r.left, r: r.right, t: r.top, b: r.bottom, text: e.textContent ?? '' };
      }),
    );
  expect(boxes.length).toBeGreaterThan(0);
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i]!;
      const b = boxes[j]!;
      const overlap = a.l < b.r && b.l < a.r && a.t < b.b && b.t < a.b;
      expect(overlap, `"${a.text}" overlaps "${b.text}"`).toBe(false);
    }
  await snap(page, 'a11y-timelines-pod');
});

test('incidents: filters set', async ({ page }) => {
  await page.goto(
    `${demo}/incidents?namespace=shop&from=2026-11-01T11:59:30.000Z&to=2026-11-01T12:02:00.000Z`,
  );
  await loaded(page);
  await expectClean(page);
});

test('findings: groups expanded', async ({ page }) => {
  await page.goto(`${demo}/findings`);
  await expect(page.getByTestId('loading')).toHaveCount(0, { timeout: 60_000 });
  const summaries = page.locator('details > summary');
  const n = await summaries.count();
  expect(n).toBeGreaterThan(0);
  for (let i = 0; i < Math.min(n, 6); i++) await summaries.nth(i).click();
  // what the clicks opened: the page around them is a11y.spec.ts's findings view
  await expectClean(page, ['details']);
});

test('snapshots list', async ({ page }) => {
  await page.goto(`${demo}/snapshots`);
  await loaded(page);
  await expectClean(page);
});

test('the pod page of a live pod', async ({ page }) => {
  const fleet = (await (await fetch(`${demo}/api/timelines?limit=50`)).json()) as {
    rows: { namespace: string; name: string; deleted?: boolean }[];
  };
  const live = fleet.rows.find((r) => !r.deleted);
  expect(live, 'a live meshed pod').toBeDefined();
  await page.goto(`${demo}${podHref(live!)}`);
  await loaded(page);
  await expectClean(page);
});

/**
 * Every table of rows: where it is, and what Enter on its second row opens (`key` is that
 * row's data-row-key).
 */
const TABLES: {
  name: string;
  url: string;
  table: string;
  /** The header the rows come sorted by, for a table sorted by its headers. */
  sortedBy?: string;
  opened: (page: Page, key: string) => Promise<void>;
  /** Where what Enter opened is shown, besides the table (test ids). */
  openedIn?: readonly string[];
}[] = [
  {
    name: 'Timelines pods',
    url: '/timelines',
    table: 'pods-table',
    // a row's key is its pod's uid (ns/name for a pod without one), which the link carries
    opened: async (page, key) => {
      await expect(page).toHaveURL(
        new RegExp(`uid=${encodeURIComponent(key)}(&|$)|pod=${encodeURIComponent(key)}|pod=${key}`),
      );
      await expect(page.getByTestId('pod-detail')).toBeVisible();
    },
    openedIn: ['pod-detail'],
  },
  {
    name: 'Scoping namespaces',
    url: '/scoping',
    table: 'scoping-table',
    sortedBy: '#',
    opened: async (page, key) => {
      await expect(page).toHaveURL(new RegExp(`namespace=${key}(&|$)`));
      await expect(
        page.getByTestId('scoping-table').locator(`[data-row-key="${key}"]`),
      ).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByTestId('scoping-proposal')).toContainText(
        `Proposed Sidecar for ${key}`,
      );
    },
    openedIn: ['scoping-proposal'],
  },
  {
    name: 'Scoping workloads',
    url: '/scoping?namespace=shop',
    table: 'scoping-workloads',
    opened: async (page, key) => {
      const name = key.split('/').pop()!;
      await expect(page).toHaveURL(new RegExp(`workload=${name}(&|$)`));
      const row = page.getByTestId('scoping-workloads').locator(`[data-row-key="${key}"]`);
      await expect(row).toHaveAttribute('aria-selected', 'true');
      // Enter on the picked workload shows every workload again
      await row.focus();
      await page.keyboard.press('Enter');
      await expect(page).not.toHaveURL(/workload=/);
    },
  },
  {
    name: 'Findings',
    url: '/findings',
    table: 'findings-list',
    sortedBy: 'Severity',
    opened: async (page, key) => {
      const row = page.getByTestId('findings-list').locator(`[data-row-key="${key}"]`);
      await expect(row).toHaveAttribute('data-open', 'true');
      await page.keyboard.press('Enter');
      await expect(row).toHaveAttribute('data-open', 'false');
    },
  },
];

for (const t of TABLES)
  test(`${t.name}: a table is one Tab stop; arrows, Home and End move; Enter opens the row`, async ({
    page,
  }) => {
    await page.goto(`${demo}${t.url}`);
    await expect(page.getByTestId('loading')).toHaveCount(0, { timeout: 60_000 });
    const table = page.getByTestId(t.table);
    const rows = table.locator('[data-row-key]');
    await expect(rows.nth(1)).toBeVisible({ timeout: 30_000 });
    // exactly one element of the table is in the Tab order (its sort buttons aside)
    const stops = await table.evaluate(
      (el) =>
        [...el.querySelectorAll<HTMLElement>('a[href], button, summary, [tabindex]')].filter(
          (e) => e.tabIndex >= 0 && !e.closest('[role="columnheader"], th'),
        ).length,
    );
    expect(stops).toBe(1);
    // the header the rows are sorted by says so (aria-sort), the other sortable ones say none
    if (t.sortedBy) {
      const sorted = table.locator('[aria-sort="ascending"], [aria-sort="descending"]');
      await expect(sorted).toHaveCount(1);
      await expect(sorted).toHaveText(new RegExp(`^${t.sortedBy}`, 'i'));
      expect(await table.locator('[aria-sort="none"]').count()).toBeGreaterThan(0);
    }
    await rows.first().focus();
    await expect(rows.first()).toBeFocused();
    const focusedKey = () =>
      page.evaluate(() => document.activeElement?.getAttribute('data-row-key') ?? null);
    const keys = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-row-key')));
    await page.keyboard.press('ArrowDown');
    expect(await focusedKey()).toBe(keys[1]);
    await page.keyboard.press('ArrowUp');
    expect(await focusedKey()).toBe(keys[0]);
    const total = Number(await table.getAttribute('aria-rowcount')) - 1;
    await page.keyboard.press('End');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-rowindex')))
      .toBe(String(total + 1));
    await page.keyboard.press('Home');
    await expect.poll(focusedKey).toBe(keys[0]);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await t.opened(page, keys[1]!);
    // what Enter opened (and the keyboard's focus ring) passes axe; the rest of the view is
    // a11y.spec.ts's
    await expectClean(
      page,
      [t.table, ...(t.openedIn ?? [])].map((id) => `[data-testid="${id}"]`),
    );
    // Tab leaves the table: the next stop is outside it
    await table.locator(`[data-row-key="${keys[0]}"]`).focus();
    await page.keyboard.press('Tab');
    const inside = await table.evaluate((el) => el.contains(document.activeElement));
    expect(inside).toBe(false);
  });

test('zooming Incidents adds a history entry: Back zooms out', async ({ page }) => {
  await page.goto(`${demo}/incidents?context=meshdx-sim-phantom-cross-ns`);
  await loaded(page);
  const before = page.url();
  const chart = page.getByTestId('incident-chart');
  const box = (await chart.locator('.recharts-cartesian-grid').boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.35, box.y + box.height / 2, { steps: 8 });
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
  await expect(page).toHaveURL(/[?&]from=2026-11-01T/);
  await page.goBack();
  await expect(page).toHaveURL(before);
  await expect(page.getByTestId('incident-chart')).toBeVisible();
});
