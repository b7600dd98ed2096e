import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { base, PORTS } from './support';
import { podHref } from '../lib/refs/pod-ref';
import { withContext } from '../lib/api/context';

// a deleted pod is kept by the demo whose Deployments invariants.spec.ts rolls (playwright.config.ts)
const demo = base(PORTS.rolloutDemo);
const CONTEXTS = [
  'meshdx-sim-demo',
  'meshdx-sim-phantom-503',
  'meshdx-sim-ambient',
  'meshdx-sim-phantom-cross-ns',
];

/** A deleted pod kept in the history store, on whichever of the demo's clusters has one. */
async function gonePodPage(): Promise<string | null> {
  for (const ctx of CONTEXTS) {
    const res = await fetch(`${demo}/api/timelines?limit=500&context=${ctx}`);
    if (!res.ok) continue;
    const fleet = (await res.json()) as {
      rows: { namespace: string; name: string; deleted?: boolean }[];
    };
    const gone = fleet.rows.find((r) => r.deleted);
    if (gone) return withContext(podHref(gone), ctx);
  }
  return null;
}

// runs beside the rollouts of invariants.spec.ts, and waits for the first pod they leave gone
test('the page of a pod that is gone: no serious or critical accessibility violations', async ({
  page,
}) => {
  let path: string | null = null;
  await expect
    .poll(async () => (path = await gonePodPage()), {
      message: 'a deleted pod kept in the history store',
      timeout: 90_000,
      intervals: [2_000],
    })
    .not.toBeNull();
  await page.goto(`${demo}${path!}`);
  await expect(page.getByTestId('loading')).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByTestId('pod-page')).toHaveAttribute('data-gone', 'true');
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const bad = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.target) }));
  expect(bad, JSON.stringify(bad, null, 2)).toEqual([]);
});
