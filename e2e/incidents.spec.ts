import { expect, test } from '@playwright/test';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { base, DEMO_DATA, PORTS, simUrl, snap } from './support';
import { podKey } from '../lib/refs/pod-ref';

const run = promisify(execFile);

// on the demo whose clocks the specs move (playwright.config.ts: the 'clock' project)
const demo = base(PORTS.clockDemo);
// The demo runs on a fixed clock at 2026-11-01T12:00:00Z; payments rolls out at +20 s.
const FROM = '2026-11-01T11:59:30.000Z';
const TO = '2026-11-01T12:02:00.000Z';

interface SimPod {
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
}

async function simNow(): Promise<number> {
  const info = (await (await fetch(`${simUrl(DEMO_DATA.clockDemo)}/_sim/info`)).json()) as {
    clock: { now: string };
  };
  return Date.parse(info.clock.now);
}

interface ViewJson {
  history: { source: string };
  totals: { byState: Record<string, number> };
  pods: { state: string }[];
  stale: { hosts: unknown[] } | null;
}

test.describe.configure({ mode: 'serial' });

test('the incident view opened from a deep link shows the phantom-503 story', async ({ page }) => {
  test.setTimeout(180_000);
  const pods = (
    (await (await fetch(`${simUrl(DEMO_DATA.clockDemo)}/api/v1/namespaces/shop/pods`)).json()) as {
      items: SimPod[];
    }
  ).items;
  const checkout = pods
    .filter((p) => p.metadata.labels?.app === 'checkout')
    .map((p) => p.metadata.name)
    .sort()[0];
  expect(checkout).toBeDefined();
  const link = `/incidents?client=shop/${checkout}&from=${FROM}&namespace=shop&to=${TO}`;
  const api = `${demo}/api/incidents?client=shop/${checkout}&from=${FROM}&namespace=shop&to=${TO}`;

  // The dashboard records pod IP history while it runs: make sure it watches, then let the
  // rollout happen (the clock is fixed, so it happens when we advance it).
  expect((await fetch(api)).status).toBe(200);
  const target = Date.parse(TO);
  while ((await simNow()) < target) {
    const res = await fetch(`${simUrl(DEMO_DATA.clockDemo)}/_sim/advance?ms=10000`, {
      method: 'POST',
    });
    expect(res.status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
  }
  await expect
    .poll(
      async () => {
        const v = (await (await fetch(api)).json()) as ViewJson;
        return (v.totals.byState.terminated ?? 0) > 0 && (v.stale?.hosts.length ?? 0) > 0;
      },
      { timeout: 30_000, intervals: [500, 1000] },
    )
    .toBe(true);
  // the production path: the pod history the runtime's one watch recorded into SQLite
  const view = (await (await fetch(api)).json()) as ViewJson;
  expect(view.history.source).toMatch(/^SQLite history store .*meshdx-sim-demo\.sqlite$/);

  await page.goto(`${demo}${link}`);
  await expect(page.getByTestId('filter-namespace')).toHaveValue('shop');
  await expect(page.getByTestId('filter-client')).toHaveValue(`shop/${checkout}`);
  await expect(page.getByTestId('filter-from')).toHaveValue(FROM);
  // the 503s, the pods they went to, that those were gone, and for how long
  const podsTable = page.getByTestId('incident-pods');
  await expect(podsTable).toContainText('payments-');
  await expect(podsTable).toContainText('gone ');
  await expect(podsTable).toContainText('after it was gone');
  await expect(page.getByTestId('incident-chart')).toContainText('rollout payments');
  await expect(page.getByTestId('incident-chart-empty')).toHaveCount(0);
  // the stale endpoint in the client's Envoy and the YAML that would have stopped it
  await expect(page.getByTestId('incident-stale')).toContainText('payments.shop.svc.cluster.local');
  await expect(page.getByTestId('incident-stale')).toContainText('terminated');
  await expect(page.getByTestId('finding-MDX0401').first()).toContainText('outlierDetection');
  await expect(page.getByTestId('incident-findings')).toContainText('retryOn');
  await expect(page.getByTestId('incident-findings')).toContainText('reset');
  const summary = (await page.getByTestId('incident-summary').textContent()) ?? '';
  const podsText = (await podsTable.textContent()) ?? '';
  expect(summary).toMatch(/To pods already gone[1-9]/);
  // each row splits its requests by the pod's state when sent, as the cards count them
  const sumOf = async (state: string) =>
    (
      await podsTable
        .locator(`[data-state="${state}"]`)
        .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-count'))))
    ).reduce((a, n) => a + n, 0);
  expect(await sumOf('terminated')).toBe(Number(/To pods already gone(\d+)/.exec(summary)?.[1]));
  expect(await sumOf('terminating')).toBe(Number(/To terminating pods(\d+)/.exec(summary)?.[1]));
  await snap(page, 'incidents-deep-link');

  // a pod that was gone when its requests were sent links to its page, answered from the store
  const goneLink = podsTable
    .getByRole('row')
    .filter({ has: page.locator('[data-state="terminated"]') })
    .getByTestId('pod-link')
    .first();
  const href = (await goneLink.getAttribute('href')) ?? '';
  expect(href).toMatch(/^\/pods\/shop\/payments-/);
  const podPage = await page.context().newPage();
  const podRes = await podPage.goto(`${demo}${href}`);
  expect(podRes?.status()).toBe(200);
  await expect(podPage.getByTestId('pod-page')).toHaveAttribute('data-gone', 'true');
  await expect(podPage.getByTestId('pod-gone')).toContainText('no longer exists');
  await expect(podPage.getByTestId('pod-ips')).toContainText('10.');
  await podPage.close();

  // the link reopens the same picture
  const again = await page.context().newPage();
  await again.goto(`${demo}${link}`);
  await expect(again.getByTestId('incident-summary')).toHaveText(summary);
  await expect(again.getByTestId('incident-pods')).toHaveText(podsText);
  await again.close();
});

test('a window without failures says so over the chart, which keeps its scale', async ({
  page,
}) => {
  // an hour before the demo's clock: requests, but no failure yet
  await page.goto(
    `${demo}/incidents?namespace=shop&from=2026-11-01T11:00:00Z&to=2026-11-01T11:10:00Z`,
  );
  await expect(page.getByTestId('incident-summary')).toContainText('Failing (5xx / flagged)0');
  const empty = page.getByTestId('incident-chart-empty');
  await expect(empty).toContainText('No failing request from 11:00:00 to 11:10:00');
  const chart = page.getByTestId('incident-chart');
  await snap(page, 'incidents-empty');
  await expect(chart.locator('.recharts-yAxis .recharts-cartesian-axis-tick')).toHaveCount(2);
});

test('a pasted log is analysed with line numbers for what cannot be read', async ({ page }) => {
  await page.goto(`${demo}/incidents?namespace=shop&from=${FROM}&to=${TO}`);
  const first = page.getByTestId('incident-requests').locator('tbody tr').first();
  await expect(first).toBeVisible();
  const logs = await (
    await fetch(
      `${simUrl(DEMO_DATA.clockDemo)}/api/v1/namespaces/shop/pods?labelSelector=app%3Dcheckout`,
    )
  ).json();
  const name = (logs as { items: SimPod[] }).items[0]?.metadata.name ?? '';
  const text = await (
    await fetch(
      `${simUrl(DEMO_DATA.clockDemo)}/api/v1/namespaces/shop/pods/${name}/log?container=istio-proxy`,
    )
  ).text();
  const failing = text.split('\n').filter((l) => / 503 (UC|UF|URX) |"response_code":503/.test(l));
  expect(failing.length).toBeGreaterThan(0);
  await page.getByTestId('upload-text').fill(`${failing.join('\n')}\nthis is not an access log\n`);
  await page.getByTestId('upload-analyze').click();
  const upload = page.getByTestId('incident-upload');
  await expect(upload.getByTestId('incident-line-errors')).toContainText(
    `upload line ${failing.length + 1}`,
  );
  await expect(upload.getByTestId('incident-pods')).toContainText('payments-');
});

// last: it adds a pod to the demo's cluster (and takes it away again)
test('a deleted pod whose name a new pod took opens its own timeline, by its uid', async ({
  page,
}) => {
  interface Row {
    namespace: string;
    name: string;
    uid: string | null;
    deleted: boolean;
  }
  const rowsNamed = async (name: string) =>
    (
      (await (await fetch(`${demo}/api/timelines?namespace=shop&q=${name}&limit=500`)).json()) as {
        rows: Row[];
      }
    ).rows.filter((r) => r.name === name);
  // a payments pod the first test's rollout left deleted
  const fleet = (await (await fetch(`${demo}/api/timelines?namespace=shop&limit=500`)).json()) as {
    rows: Row[];
  };
  const gone = fleet.rows.find((r) => r.deleted && r.name.startsWith('payments-') && r.uid);
  expect(gone, 'a deleted payments pod kept in the history').toBeDefined();
  const { name } = gone!;
  const oldUid = gone!.uid!;
  // a pod of the same name as an SRE (or a StatefulSet) would make it: from a live payments
  // pod's spec, labelled apart so that the ReplicaSet does not adopt it
  const live = (
    (await (
      await fetch(
        `${simUrl(DEMO_DATA.clockDemo)}/api/v1/namespaces/shop/pods?labelSelector=app%3Dpayments`,
      )
    ).json()) as { items: { spec: unknown }[] }
  ).items[0];
  expect(live).toBeDefined();
  const kubeconfig = path.join(DEMO_DATA.clockDemo, 'sim-demo.kubeconfig');
  const manifest = JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'shop', labels: { app: 'payments-namesake' } },
    spec: live!.spec,
  });
  const kubectl = (...args: string[]) => run('kubectl', ['--kubeconfig', kubeconfig, ...args]);
  const create = kubectl('create', '-f', '-');
  create.child.stdin?.end(manifest);
  await create;
  try {
    await expect
      .poll(async () => (await rowsNamed(name)).length, { timeout: 30_000, intervals: [500] })
      .toBe(2);
    const newUid = (await rowsNamed(name)).find((r) => !r.deleted)?.uid;
    expect(newUid).toBeTruthy();
    expect(newUid).not.toBe(oldUid);

    await page.goto(`${demo}/timelines?namespace=shop&q=${name}`);
    const rows = page.getByTestId('pods-table').getByRole('row').filter({ hasText: name });
    await expect(rows).toHaveCount(2);
    const title = page.getByTestId('pod-detail-title');
    const titleLink = title.getByTestId('pod-link');
    // a row is opened by a click beside its links (its startup-mode cell)
    const open = (row: typeof rows) => row.getByRole('cell').nth(3).click();
    // the deleted one: its own timeline, marked deleted, its uid in the link
    await open(rows.filter({ hasText: 'deleted' }));
    await expect(page).toHaveURL(new RegExp(`uid=${oldUid}`));
    await expect(titleLink).toHaveText(podKey('shop', name));
    await expect(title).toHaveAttribute('data-deleted', 'true');
    await expect(titleLink).toHaveAttribute('href', new RegExp(`uid=${oldUid}`));
    await expect(rows.filter({ hasText: 'deleted' })).toHaveAttribute('aria-selected', 'true');
    await expect(rows.filter({ hasNotText: 'deleted' })).toHaveAttribute('aria-selected', 'false');
    await snap(page, 'timelines-namesake-deleted');
    // the live one: the new pod's, not marked
    await open(rows.filter({ hasNotText: 'deleted' }));
    await expect(page).toHaveURL(new RegExp(`uid=${newUid}`));
    await expect(titleLink).toHaveAttribute('href', new RegExp(`uid=${newUid}`));
    await expect(title).toHaveAttribute('data-deleted', 'false');
    // a link without the uid opens the pod that holds the name now, its row selected
    await page.goto(`${demo}/timelines?namespace=shop&q=${name}&pod=${podKey('shop', name)}`);
    await expect(titleLink).toHaveAttribute('href', new RegExp(`uid=${newUid}`));
    await expect(title).toHaveAttribute('data-deleted', 'false');
    await expect(rows.filter({ hasNotText: 'deleted' })).toHaveAttribute('aria-selected', 'true');
    // and one with a uid no pod of the name had says so
    const res = await fetch(`${demo}/api/timelines/shop/${name}?uid=no-such-uid`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain(
      `now has uid ${newUid}`,
    );
  } finally {
    await kubectl('-n', 'shop', 'delete', 'pod', name, '--wait=false');
  }
});
