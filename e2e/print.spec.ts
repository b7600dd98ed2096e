import { expect, test, type Locator, type Page } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { base, PORTS, SCREENSHOTS } from './support';

const demo = base(PORTS.demo);

/** A4's printable width in CSS pixels with the stylesheet's margins: (210 − 2 × 10) mm at 96 dpi. */
const A4_CONTENT_PX = Math.floor(((210 - 20) / 25.4) * 96);

/** The pages of a PDF Chromium wrote (its page objects, not the page tree's root). */
function pdfPages(pdf: Buffer): number {
  return (pdf.toString('latin1').match(/\/Type\s*\/Page(?![s\w])/g) ?? []).length;
}

/**
 * A chart laid out for paper: its drawing and its time axis (the line and the last tick) end
 * within the page's width, and the axis spans most of it (it reaches the window's end, not a
 * clipped part of the screen's width).
 */
async function expectChartOnPage(chart: Locator) {
  const svg = await chart.locator('svg.recharts-surface').first().boundingBox();
  expect(svg).not.toBeNull();
  expect(svg!.x).toBeGreaterThanOrEqual(0);
  expect(svg!.x + svg!.width).toBeLessThanOrEqual(A4_CONTENT_PX + 1);
  const axis = await chart
    .locator('.recharts-xAxis .recharts-cartesian-axis-line')
    .first()
    .boundingBox();
  expect(axis).not.toBeNull();
  expect(axis!.x + axis!.width).toBeLessThanOrEqual(A4_CONTENT_PX + 1);
  expect(axis!.width).toBeGreaterThan(A4_CONTENT_PX * 0.6);
  const ticks = chart.locator('.recharts-xAxis .recharts-cartesian-axis-tick');
  expect(await ticks.count()).toBeGreaterThan(1);
  const last = await ticks.last().boundingBox();
  expect(last).not.toBeNull();
  expect(last!.x + last!.width).toBeLessThanOrEqual(A4_CONTENT_PX + 1);
}

/** The page as it prints: print media at A4's printable width, then the PDF itself. */
async function printed(page: Page, name: string): Promise<Buffer> {
  await page.setViewportSize({ width: A4_CONTENT_PX, height: 1000 });
  await page.emulateMedia({ media: 'print' });
  const pdf = await page.pdf({ format: 'A4', preferCSSPageSize: true, printBackground: true });
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  fs.writeFileSync(path.join(SCREENSHOTS, `print-${name}.pdf`), pdf);
  await page.screenshot({ path: path.join(SCREENSHOTS, `print-${name}.png`), fullPage: true });
  await page.screenshot({
    path: path.join(SCREENSHOTS, `print-${name}-top.png`),
    fullPage: true,
    clip: { x: 0, y: 0, width: A4_CONTENT_PX, height: 1400 },
  });
  return pdf;
}

test('Incidents prints to A4 with the whole chart, cards and table', async ({ page }) => {
  await page.goto(`${demo}/incidents?context=meshdx-sim-phantom-cross-ns`);
  await expect(page.getByTestId('loading')).toHaveCount(0, { timeout: 30_000 });
  const chart = page.getByTestId('incident-chart');
  await expect(chart.locator('svg.recharts-surface').first()).toBeVisible();
  const pdf = await printed(page, 'incidents');
  await expectChartOnPage(chart);
  // the cards and the tables fit the page's width
  for (const id of ['incident-summary', 'incident-pods']) {
    const box = await page.getByTestId(id).first().boundingBox();
    expect(box, id).not.toBeNull();
    expect(box!.x + box!.width, id).toBeLessThanOrEqual(A4_CONTENT_PX + 1);
  }
  // the logo prints dark on white
  const logo = await page.getByTestId('home-link').evaluate((e) => getComputedStyle(e).color);
  expect(logo).toBe('rgb(15, 23, 42)');
  const pages = pdfPages(pdf);
  expect(pages).toBeGreaterThanOrEqual(1);
  expect(pages).toBeLessThanOrEqual(12);
});

test("Timelines prints to A4 with every row of the page and a pod's whole chart", async ({
  page,
}) => {
  await page.goto(`${demo}/timelines`);
  await expect(page.getByTestId('loading')).toHaveCount(0, { timeout: 30_000 });
  const table = page.getByTestId('pods-table');
  await table.locator('[role="row"][data-row-key]').first().click();
  await expect(page).toHaveURL(/pod=/);
  const chart = page.getByTestId('gantt-chart');
  await expect(chart.locator('svg.recharts-surface').first()).toBeVisible({ timeout: 30_000 });
  const pdf = await printed(page, 'timelines');
  await expectChartOnPage(chart);
  // a virtualised table prints every row it holds, within the page's width
  const total = Number(await table.getAttribute('aria-rowcount')) - 1;
  expect(total).toBeGreaterThan(20);
  await expect(table.locator('[role="row"][data-row-key]')).toHaveCount(total);
  const box = await table.boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(A4_CONTENT_PX + 1);
  const pages = pdfPages(pdf);
  expect(pages).toBeGreaterThanOrEqual(1);
  expect(pages).toBeLessThanOrEqual(40);
});
