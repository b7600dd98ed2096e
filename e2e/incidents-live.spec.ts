import { expect, test, type Page } from '@playwright/test';
import { base, DEMO_DATA, PORTS, simUrlOf, snap } from './support';
import { podKey } from '../lib/refs/pod-ref';

// on the demo whose clocks the specs move (playwright.config.ts: the 'clock' project)
const demo = base(PORTS.clockDemo);
const CROSS = 'meshdx-sim-phantom-cross-ns';
const PHANTOM = 'meshdx-sim-phantom-503';

interface Row {
  time: string | null;
  state: string;
  pod: { namespace: string; name: string } | null;
}
interface ViewJson {
  chart: {
    from: string;
    to: string;
    bucketMs: number;
    markers: { kind: string; pod: string; at: string }[];
  };
  requests: Row[];
  pods: { clients: string[] }[];
  clients: { chosen: { pod: string; reason: string }[]; skipped: { pod: string }[] };
  totals: { shown: number; byState: Record<string, number> };
}

async function simNow(url: string): Promise<number> {
  const info = (await (await fetch(`${url}/_sim/info`)).json()) as { clock: { now: string } };
  return Date.parse(info.clock.now);
}

/** Advance a simulated cluster to `iso` in small steps, so the dashboard's watch sees each change. */
async function advanceTo(url: string, iso: string): Promise<void> {
  while ((await simNow(url)) < Date.parse(iso)) {
    const res = await fetch(`${url}/_sim/advance?ms=5000`, { method: 'POST' });
    expect(res.status).toBe(200);
    await new Promise((r) => setTimeout(r, 150));
  }
}

async function view(query: string): Promise<ViewJson> {
  const res = await fetch(`${demo}/api/incidents${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as ViewJson;
}

interface Layout {
  bars: { from: string; to: string; x: number; w: number }[];
  markers: { kind: string; pod: string; at: string; x: number }[];
}

/** Bars and markers of the incident chart, read from one layout (one evaluate, one frame). */
function readLayout(page: Page): Promise<Layout> {
  return page.getByTestId('incident-chart').evaluate((chart) => ({
    bars: [...chart.querySelectorAll('[data-testid="failure-bar"]')].map((e) => {
      const r = e.getBoundingClientRect();
      return {
        from: e.getAttribute('data-from') ?? '',
        to: e.getAttribute('data-to') ?? '',
        x: r.x,
        w: r.width,
      };
    }),
    markers: [...chart.querySelectorAll('[data-testid="chart-marker"]')].map((e) => ({
      kind: e.getAttribute('data-kind') ?? '',
      pod: e.getAttribute('data-pod') ?? '',
      at: e.getAttribute('data-at') ?? '',
      x: e.getBoundingClientRect().x,
    })),
  }));
}

/**
 * Pixels per ms of the chart's time axis, from its two bars furthest apart in time (one bar's
 * width over its bin when all bars share one bin); null when the layout has no usable bars.
 */
function pxPerMsOf(layout: Layout, bucketMs: number): number | null {
  const bars = [...layout.bars].sort((a, b) => Date.parse(a.from) - Date.parse(b.from));
  const a = bars[0];
  const b = bars.at(-1);
  if (!a || !b || bars.some((r) => !(r.w > 0))) return null;
  const span = Date.parse(b.from) - Date.parse(a.from);
  const px = span > 0 ? (b.x - a.x) / span : a.w / bucketMs;
  return px > 0 ? px : null;
}

/**
 * Every failure sent to a pod after its deletion started stands, on screen, inside its bar and
 * right of that pod's deletion line: bars and markers share one time axis.
 */
async function expectBarsAfterDeletions(page: Page, v: ViewJson): Promise<number> {
  // the chart lays its bars out after the data arrives and again when its container settles:
  // measure a layout that has bars on a usable axis and held still between two reads 100 ms apart
  let layout: Layout = { bars: [], markers: [] };
  await expect
    .poll(async () => {
      const first = await readLayout(page);
      await page.waitForTimeout(100);
      const second = await readLayout(page);
      layout = second;
      return (
        JSON.stringify(first) === JSON.stringify(second) &&
        pxPerMsOf(second, v.chart.bucketMs) !== null
      );
    })
    .toBe(true);
  const { bars, markers } = layout;
  const pxPerMs = pxPerMsOf(layout, v.chart.bucketMs) ?? 0;
  expect(pxPerMs).toBeGreaterThan(0);
  let checked = 0;
  for (const r of v.requests) {
    if (!r.pod || !r.time || !['terminating', 'terminated'].includes(r.state)) continue;
    const m = markers.find(
      (x) => x.kind === 'termination' && x.pod === podKey(r.pod!.namespace, r.pod!.name),
    );
    if (!m) continue;
    const t = Date.parse(r.time);
    const bar = bars.find((x) => t >= Date.parse(x.from) && t < Date.parse(x.to));
    expect(bar, `bar of the failure at ${r.time}`).toBeDefined();
    // the failure's own position within its bar, and the bar, are right of the deletion line
    const failureX = bar!.x + (t - Date.parse(bar!.from)) * pxPerMs;
    expect(failureX).toBeGreaterThanOrEqual(m.x - 1);
    expect(bar!.x + bar!.w).toBeGreaterThanOrEqual(m.x - 1);
    checked++;
  }
  return checked;
}

test.describe.configure({ mode: 'serial' });

test('the default view of the cross-namespace scenario shows its story, bars after deletions', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const sim = simUrlOf('phantom-cross-ns', DEMO_DATA.clockDemo);
  expect((await fetch(`${demo}/api/incidents?context=${CROSS}`)).status).toBe(200);
  await advanceTo(sim, '2026-11-01T12:01:10Z');
  await expect
    .poll(async () => (await view(`?context=${CROSS}`)).totals.byState.terminated ?? 0, {
      timeout: 30_000,
    })
    .toBeGreaterThan(0);
  const v = await view(`?context=${CROSS}`);
  expect(v.clients.skipped.length).toBeGreaterThan(0);
  expect(v.clients.chosen.slice(0, 2).every((c) => c.pod.startsWith('storefront/'))).toBe(true);

  await page.goto(`${demo}/incidents?context=${CROSS}`);
  await expect(page.getByTestId('incident-pods')).toContainText('payments-');
  await expect(page.getByTestId('incident-summary')).toContainText(/To pods already gone[1-9]/);
  await expect(page.getByTestId('clients-read')).toContainText('storefront/checkout-');
  await expect(page.getByTestId('clients-skipped')).toContainText('shop/');
  await expect(page.getByTestId('incident-window')).toContainText('Window 2026-11-01');
  const checked = await expectBarsAfterDeletions(page, v);
  expect(checked).toBeGreaterThan(5);
  // a pod row's clients: the first named, the others counted (the title names them all)
  const many = v.pods.filter((p) => p.clients.length > 1);
  expect(many.length, 'a pod failed by two clients or more').toBeGreaterThan(0);
  await expect
    .poll(async () => (await page.getByTestId('more-clients').allTextContents()).sort())
    .toEqual(many.map((p) => `+${p.clients.length - 1}`).sort());
  await snap(page, 'incidents-cross-ns-default');

  // the same on the phantom-503 cluster itself (asked first, so that its pod watch runs)
  expect((await fetch(`${demo}/api/incidents?context=${PHANTOM}&namespace=shop`)).status).toBe(200);
  await advanceTo(simUrlOf('phantom-503', DEMO_DATA.clockDemo), '2026-11-01T12:01:10Z');
  await expect
    .poll(
      async () => (await view(`?context=${PHANTOM}&namespace=shop`)).totals.byState.terminated ?? 0,
      {
        timeout: 30_000,
      },
    )
    .toBeGreaterThan(0);
  const p = await view(`?context=${PHANTOM}&namespace=shop`);
  await page.goto(`${demo}/incidents?context=${PHANTOM}&namespace=shop`);
  await expect(page.getByTestId('incident-pods')).toContainText('payments-');
  expect(await expectBarsAfterDeletions(page, p)).toBeGreaterThan(5);
});

test('live mode shows lines the clients write while the page is open, attributed', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const sim = simUrlOf('phantom-cross-ns', DEMO_DATA.clockDemo);
  await page.goto(`${demo}/incidents?context=${CROSS}`);
  const before = (await view(`?context=${CROSS}`)).totals.shown;
  await page.getByTestId('live-switch').check();
  await expect(page.getByTestId('live-status')).toContainText('Live (live)');
  // the gone payments pod stays in the clients' endpoints: they keep failing on it (UF)
  const start = await simNow(sim);
  await advanceTo(sim, new Date(start + 30_000).toISOString());
  await expect(page.getByTestId('live-status')).toContainText(
    /[1-9]\d* failing requests attributed/,
    {
      timeout: 20_000,
    },
  );
  // the clock stands still now: wait until the last lines have been attributed and sent
  const receivedNow = async () =>
    Number(
      /(\d+) failing requests attributed/.exec(
        (await page.getByTestId('live-status').textContent()) ?? '',
      )?.[1] ?? '0',
    );
  let received = -1;
  for (let i = 0; i < 20; i++) {
    await page.waitForTimeout(1500);
    const n = await receivedNow();
    if (n === received) break;
    received = n;
  }
  expect(received).toBeGreaterThan(0);
  // the new rows are in the table, attributed to the gone pod, and counted in the summary
  const rows = page.getByTestId('incident-requests').locator('tbody tr');
  const lastTime = new Date(start + 20_000).toISOString().slice(11, 19);
  await expect(rows.filter({ hasText: 'terminated' }).last()).toBeVisible();
  const times = await rows.locator('td:first-child').allTextContents();
  expect(times.some((t) => t >= lastTime)).toBe(true);
  await expect(page.getByTestId('incident-requests')).toContainText(
    `Failing requests (${before + received}`,
  );
  await snap(page, 'incidents-live');

  // pause: the stream closes; the copied link is the absolute window seen so far
  await page.getByTestId('live-pause').click();
  await expect(page.getByTestId('live-status')).toContainText('Live (paused)');
  await page.getByTestId('copy-window-link').click();
  const link = new URL((await page.getByTestId('copied-link').textContent()) ?? '');
  expect(link.searchParams.get('context')).toBe(CROSS);
  const to = Date.parse(link.searchParams.get('to') ?? '');
  expect(Date.parse(link.searchParams.get('from') ?? '')).toBeLessThan(to);
  expect(to).toBeGreaterThan(start + 20_000);
  await page.close();
});

test('dragging across the chart zooms; the URL holds the window and a reload shows the same', async ({
  page,
}) => {
  await page.goto(`${demo}/incidents?context=${CROSS}`);
  const chart = page.getByTestId('incident-chart');
  const binBefore = Number(await chart.getAttribute('data-bin-ms'));
  const box = (await chart.locator('.recharts-cartesian-grid').boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.35, box.y + box.height / 2, { steps: 8 });
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
  await expect(page).toHaveURL(/[?&]from=2026-11-01T[^&]+&.*to=2026-11-01T/);
  const url = new URL(page.url());
  const from = Date.parse(url.searchParams.get('from') ?? '');
  const to = Date.parse(url.searchParams.get('to') ?? '');
  expect(to).toBeGreaterThan(from);
  await expect(chart).not.toHaveAttribute('data-bin-ms', String(binBefore));
  const window =
    (await page.getByTestId('incident-window').locator('p').first().textContent()) ?? '';
  await page.reload();
  await expect(page.getByTestId('incident-window').locator('p').first()).toHaveText(window);
  expect(Number(await chart.getAttribute('data-bin-ms'))).toBeLessThan(binBefore);
  await snap(page, 'incidents-zoomed');
});

test('a bad window is a 400 naming the parameter, and the page says so', async ({ page }) => {
  const one = await fetch(`${demo}/api/incidents?context=${CROSS}&from=1`);
  expect(one.status).toBe(400);
  const body = (await one.json()) as { error: { code: string; message: string } };
  expect(body.error.code).toBe('INVALID_PARAMETER');
  expect(body.error.message).toMatch(/^from: "1" is not epoch milliseconds/);
  const inverted = `from=2026-11-01T12:05:00Z&to=2026-11-01T12:00:00Z`;
  expect((await fetch(`${demo}/api/incidents?${inverted}`)).status).toBe(400);
  expect((await fetch(`${demo}/api/incidents?to=2026-13-01T00:00:00Z`)).status).toBe(400);
  expect((await fetch(`${demo}/api/incidents/live?since=yesterday`)).status).toBe(400);
  await page.goto(`${demo}/incidents?${inverted}`);
  await expect(page.getByTestId('error-panel')).toContainText(
    'from: 2026-11-01T12:05:00Z is not before to',
  );
});
