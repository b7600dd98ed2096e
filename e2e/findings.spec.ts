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
    const items = page.locator(`[data-testid="findings-list"] li[data-code="${code}"]`);
    await expect(items.first(), code).toBeVisible();
    await expect(
      page.locator('[data-testid="findings-list"] li:not([data-code="' + code + '"])'),
    ).toHaveCount(0);
  }
  await page.goto(`${demo}/findings?namespace=ports&code=MDX0507`);
  await expect(page.getByTestId('findings-list')).toContainText('api.exchange-rates.example.com');

  await page.goto(`${demo}/findings?namespace=ports`);
  await expect(page.getByTestId('findings-card')).toBeVisible();
  for (const code of EXPECTED) {
    await expect(page.locator(`li[data-code="${code}"]`).first()).toBeVisible();
  }
  await snap(page, 'findings-protocol');
});
