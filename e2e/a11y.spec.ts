import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { base, PORTS, snap, watchContentSecurityPolicy } from './support';
import { podHref } from '../lib/refs/pod-ref';

const demo = base(PORTS.demo);

const VIEWS = [
  ['overview', '/'],
  ['timelines', '/timelines'],
  ['proxies', '/proxies'],
  ['scoping', '/scoping'],
  ['incidents', '/incidents?namespace=shop'],
  ['incidents (cross-namespace)', '/incidents?context=meshdx-sim-phantom-cross-ns'],
  ['findings', '/findings'],
  ['pod', null],
] as const;

/** A pod page's path: the first meshed pod of the demo cluster. */
async function podPath(): Promise<string> {
  const list = (await (await fetch(`${demo}/api/pods?meshed=1&limit=1`)).json()) as {
    pods: { namespace: string; name: string }[];
  };
  const p = list.pods[0];
  expect(p).toBeDefined();
  return podHref({ namespace: String(p?.namespace), name: String(p?.name) });
}

for (const [name, path] of VIEWS) {
  test(`${name}: no serious or critical accessibility violations, nor CSP violations`, async ({
    page,
  }) => {
    // the view's first render keeps to its nonce CSP (security.spec.ts checks the headers)
    const csp = await watchContentSecurityPolicy(page);
    await page.goto(`${demo}${path ?? (await podPath())}`);
    await expect(page.getByTestId('loading')).toHaveCount(0, { timeout: 30_000 });
    const result = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    const bad = result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
      }));
    expect(bad, JSON.stringify(bad, null, 2)).toEqual([]);
    expect(csp).toEqual([]);
    if (name === 'findings') await snap(page, 'findings');
  });
}

test('incidents filters and tables are usable from the keyboard', async ({ page }) => {
  await page.goto(`${demo}/incidents?namespace=shop`);
  await expect(page.getByTestId('loading')).toHaveCount(0, { timeout: 30_000 });
  // the namespace filter takes focus and Tab moves on to the client filter (tried again when a
  // refetch that lands in between re-renders the filter bar and drops the focus)
  await expect(async () => {
    await page.getByTestId('filter-namespace').focus();
    await expect(page.getByTestId('filter-namespace')).toBeFocused({ timeout: 1_000 });
    await page.keyboard.press('Tab');
    await expect(page.getByTestId('filter-client')).toBeFocused({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  // the scrollable request table is reachable with Tab and scrolls with the arrow keys
  const region = page.getByRole('region', { name: 'Failing requests, scrollable' });
  await region.focus();
  await expect(region).toBeFocused();
  await page.keyboard.press('PageDown');
  // the print stylesheet: light A4, filters gone, tables printed whole
  await page.emulateMedia({ media: 'print' });
  await expect(page.locator('nav').first()).toBeHidden();
  await expect(page.getByTestId('filter-namespace')).toBeHidden();
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(bg).toBe('rgb(255, 255, 255)');
  const overflow = await region.evaluate((e) => getComputedStyle(e).overflowY);
  expect(overflow).toBe('visible');
});
