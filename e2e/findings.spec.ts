import { expect, test } from '@playwright/test';
import { base, PORTS, snap } from './support';

const demo = base(PORTS.demo);

/**
 * The protocol findings the demo's `ports` namespace must show (port-naming scenario). MDX0502
 * (server-first behind a sniffed port) is absent on purpose: the scenario's orders-db listens on
 * Service port 3306, which Istio treats as TCP by number (MDX0503), so nothing hangs there.
 */
const EXPECTED = ['IST0118', 'MDX0503', 'MDX0504', 'IST0137', 'MDX0505', 'MDX0506', 'MDX0507'];

test('findings show every protocol finding of namespace ports', async ({ page }) => {
  for (const code of EXPECTED) {
    await page.goto(`${demo}/findings?namespace=ports&code=${code}`);
    const items = page.locator(`[data-testid="findings-list"] tr[data-code="${code}"]`);
    await expect(items.first(), code).toBeVisible();
    await expect(
      page.locator('[data-testid="findings-list"] tr[data-code]:not([data-code="' + code + '"])'),
    ).toHaveCount(0);
  }
  await page.goto(`${demo}/findings?namespace=ports&code=MDX0507`);
  await expect(page.getByTestId('findings-list')).toContainText('api.exchange-rates.example.com');

  await page.goto(`${demo}/findings?namespace=ports`);
  await expect(page.getByTestId('findings-card')).toBeVisible();
  for (const code of EXPECTED) {
    await expect(page.locator(`tr[data-code="${code}"]`).first()).toBeVisible();
  }
  await snap(page, 'findings-protocol');
});

test('a long list lays out its first 100 findings and the rest on demand', async ({ page }) => {
  const report = (await (await fetch(`${demo}/api/findings`)).json()) as {
    findings: { severity: string }[];
  };
  const n = report.findings.length;
  // the demo's cluster has more than one screenful: the case this is about
  expect(n).toBeGreaterThan(100);
  const items = page.getByTestId('findings-list').locator('tbody > tr');
  const more = page.getByTestId('findings-more');
  await page.goto(`${demo}/findings`);
  await expect(items).toHaveCount(100);
  await expect(more).toContainText(`Showing 100 of ${n}`);
  await more.getByRole('button', { name: `Show ${Math.min(100, n - 100)} more` }).click();
  await expect(items).toHaveCount(Math.min(200, n));
  await page.goto(`${demo}/findings`);
  await more.getByRole('button', { name: 'Show all' }).click();
  await expect(items).toHaveCount(n);
  await expect(more).toHaveCount(0);
  // a filter starts the list again from its top
  await page.getByTestId('filter-severity').selectOption('warning');
  const warnings = report.findings.filter((f) => f.severity === 'warning').length;
  await expect(items).toHaveCount(Math.min(100, warnings));
});

test("Overview's findings show before the report is whole, filled in as the report completes", async ({
  page,
}) => {
  // How soon is the bench's (views.findings-first-answer-demo, target 3 s on an idle machine):
  // a browser test measures the machine it runs on. This one proves what comes first: the codes
  // known so far, or the card saying what is still being read, then the whole report.
  const t0 = Date.now();
  await page.goto(`${demo}/`);
  const card = page.getByTestId('attention-card');
  // the first answer: codes from what is known, or the card saying what is still being read
  await expect(
    card.locator('[data-attention-code], [data-testid="attention-partial"]').first(),
  ).toBeVisible();
  // recorded for whoever reads the report, never judged here
  test
    .info()
    .annotations.push({ type: 'findings-visible-ms', description: String(Date.now() - t0) });
  await expect(card).not.toContainText('Loading findings');
  // the card fills in until the report is whole (it asks again while parts are still read)
  await expect(card.getByTestId('attention-partial')).toHaveCount(0, { timeout: 60_000 });
  await expect(card.locator('[data-attention-code]').first()).toBeVisible();
});

test("a finding's link opens the view that shows its evidence: a race's pod on Timelines", async ({
  page,
}) => {
  await page.goto(`${demo}/findings?code=MDX0102`);
  const row = page.locator('[data-testid="findings-list"] tr[data-code="MDX0102"]').first();
  await expect(row).toBeVisible({ timeout: 60_000 });
  const link = row.getByTestId('finding-link').filter({ hasText: 'Timelines' });
  const href = (await link.getAttribute('href')) ?? '';
  const pod = new URL(href, demo).searchParams.get('pod');
  expect(pod, `the link names the workload's example pod: ${href}`).toBeTruthy();
  await link.click();
  await expect(page).toHaveURL(/\/timelines\?/);
  // the pod the finding was judged on, open, with the race verdict and its fix
  const card = page.getByTestId('pod-detail');
  await expect(card).toContainText(pod!, { timeout: 60_000 });
  await expect(card.locator('[data-testid^="pod-fix-race"]').first()).toContainText(
    'holdApplicationUntilProxyStarts',
  );
  await snap(page, 'findings-link-to-timelines');
});
