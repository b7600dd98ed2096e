import path from 'node:path';
import type { Page } from '@playwright/test';
import type { PagePlan, ReportPage } from './model';

/**
 * A function, not a string: the dashboard's Content-Security-Policy forbids evaluating strings
 * as script ('unsafe-eval'), and a string predicate is polled with eval in the page.
 */
const NO_LOADING = (): boolean => document.querySelectorAll('[data-testid="loading"]').length === 0;
/**
 * Every chart on view is drawn: recharts' ResponsiveContainer draws nothing until it has
 * measured its box (a ResizeObserver callback, a frame or more after the data came), and a
 * screenshot taken before shows an empty card beside a full table. A chart in a hidden part
 * of the page (no offsetParent) is never measured and is not waited for.
 */
const CHARTS_DRAWN = (): boolean =>
  [...document.querySelectorAll<HTMLElement>('.recharts-responsive-container')].every(
    (c) => c.offsetParent === null || c.querySelector('svg') !== null,
  );
/** Network quiet is waited for at most this long: some views poll or stream. */
const NETWORK_IDLE_CAP_MS = 5_000;
/** Error texts are kept this long in report.json. */
const MAX_ERROR_CHARS = 2_000;

function message(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  return m.split('\n')[0] ?? m;
}

const clip = (s: string) =>
  s.length > MAX_ERROR_CHARS ? `${s.slice(0, MAX_ERROR_CHARS - 1)}…` : s;

/**
 * Waits until the page shows data: no `data-testid="loading"` element left, the network quiet
 * (capped), still no loading element (a query started late), every chart on view drawn, and
 * fonts loaded. Returns the problem when the page never got there.
 */
export async function waitForData(page: Page, timeoutMs: number): Promise<string | null> {
  const until = Date.now() + timeoutMs;
  const left = () => Math.max(1, until - Date.now());
  try {
    await page.waitForFunction(NO_LOADING, undefined, { timeout: left(), polling: 100 });
    await page
      .waitForLoadState('networkidle', { timeout: Math.min(NETWORK_IDLE_CAP_MS, left()) })
      .catch(() => undefined);
    await page.waitForFunction(NO_LOADING, undefined, { timeout: left(), polling: 100 });
    await page.waitForFunction(CHARTS_DRAWN, undefined, { timeout: left(), polling: 100 });
    await page.evaluate(() => document.fonts.ready.then(() => true));
    return null;
  } catch {
    const n = await page
      .locator('[data-testid="loading"]')
      .count()
      .catch(() => -1);
    const undrawn = await page
      .evaluate(CHARTS_DRAWN)
      .then((drawn) => !drawn)
      .catch(() => false);
    return n > 0
      ? `still loading after ${Math.round(timeoutMs / 1000)} s (${n} loading element${n === 1 ? '' : 's'} left)`
      : undrawn
        ? `a chart was not drawn within ${Math.round(timeoutMs / 1000)} s`
        : `the page did not settle within ${Math.round(timeoutMs / 1000)} s`;
  }
}

/** Text of each error panel, its pieces (title, code, message, fix) separated by spaces. */
async function errorPanels(page: Page): Promise<string[]> {
  const texts = await page.locator('[data-testid="error-panel"]').evaluateAll((els) =>
    els.map((el) => {
      const parts: string[] = [];
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n !== null; n = walker.nextNode()) {
        const t = (n.textContent ?? '').trim();
        if (t !== '') parts.push(t);
      }
      return parts.join(' ');
    }),
  );
  return texts.filter((t) => t !== '');
}

/**
 * Visits one page and takes its full-page screenshot into `dir`. Everything that goes wrong is
 * in the returned record (status 'error'), never thrown: an HTTP error status, an error panel
 * on the page, data that never arrived, a failed navigation.
 */
export async function capturePage(
  page: Page,
  plan: PagePlan,
  dir: string,
  timeoutMs: number,
): Promise<ReportPage> {
  const problems: string[] = [];
  try {
    const res = await page.goto(plan.url, { waitUntil: 'load', timeout: timeoutMs });
    if (res && res.status() >= 400)
      problems.push(`HTTP ${res.status()} ${res.statusText()}`.trim());
    const stuck = await waitForData(page, timeoutMs);
    if (stuck) problems.push(stuck);
    const panels = await errorPanels(page);
    if (panels.length > 0) problems.push(...panels.map((t) => `error panel: ${t}`));
  } catch (e) {
    problems.push(`could not open the page: ${message(e)}`);
  }
  let file: string | null = plan.file;
  try {
    await page.screenshot({
      path: path.join(dir, plan.file),
      fullPage: true,
      animations: 'disabled',
      timeout: timeoutMs,
    });
  } catch (e) {
    file = null;
    problems.push(`no screenshot: ${message(e)}`);
  }
  const base = { name: plan.name, url: plan.url, file };
  return problems.length === 0
    ? { ...base, status: 'ok' }
    : { ...base, status: 'error', error: clip(problems.join('\n')) };
}
