import { expect, test } from '@playwright/test';
import { base, PORTS, simUrl, snap } from './support';
import { podKeyOfObject } from '../lib/refs/pod-ref';

const demo = base(PORTS.demo);

interface SimPod {
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  spec: { containers: { name: string }[]; initContainers?: { name: string }[] };
  status?: { podIP?: string; containerStatuses?: { name: string; state?: { running?: object } }[] };
}

/** The simulator's pods meshdx can read (the demo stores one without a spec on purpose). */
async function simPods(): Promise<SimPod[]> {
  const res = await fetch(`${simUrl()}/api/v1/pods`);
  return ((await res.json()) as { items: SimPod[] }).items.filter((p) => p.spec !== undefined);
}

// ztunnel (app=ztunnel) names its container istio-proxy too, but it is no Envoy of its pod
const hasProxy = (p: SimPod) =>
  p.metadata.labels?.app !== 'ztunnel' &&
  [...p.spec.containers, ...(p.spec.initContainers ?? [])].some((c) => c.name === 'istio-proxy');

/** The simulator's own :15090 gauge for a pod (asked directly, not through meshdx). */
async function simActiveClusters(p: SimPod): Promise<number | null> {
  const url = `${simUrl()}/api/v1/namespaces/${p.metadata.namespace}/pods/${p.metadata.name}:15090/proxy/stats/prometheus`;
  const res = await fetch(url);
  if (!res.ok) return null;
  const m = /^envoy_cluster_manager_active_clusters(?:\{\})? (\d+)$/m.exec(await res.text());
  return m?.[1] ? Number(m[1]) : null;
}

test('the fleet shows every proxy with the cluster count the proxy reports', async ({ page }) => {
  const meshed = (await simPods()).filter(hasProxy);
  await page.goto(`${demo}/proxies`);
  await expect(page.getByTestId('stat-proxies')).toContainText(
    meshed.length.toLocaleString('en-US'),
  );
  // one page of rows is shipped; the pager counts the whole fleet
  await expect(page.getByTestId('proxies-table')).toContainText(
    `${Math.min(50, meshed.length).toLocaleString('en-US')} rows`,
  );
  await expect(page.getByTestId('fleet-pager')).toContainText(
    `of ${meshed.length.toLocaleString('en-US')}`,
  );
  await expect(page.getByTestId('api-footer')).toContainText('pods/proxy');
  // three proxies checked against the simulator's own gauge
  let checked = 0;
  for (const p of meshed) {
    if (checked >= 3) break;
    const n = await simActiveClusters(p);
    if (n === null) continue;
    const key = podKeyOfObject(p);
    await page.getByTestId('filter-q').fill(p.metadata.name);
    await page.getByTestId('filter-q').press('Enter');
    const row = page.locator(`[data-row-key="${key}"]`);
    await expect(row).toContainText(n.toLocaleString('en-US'));
    checked++;
  }
  expect(checked).toBeGreaterThan(0);
  await page.goto(`${demo}/proxies`);
  await expect(page.getByTestId('proxies-table')).toBeVisible();
  await snap(page, 'proxies-fleet');
  // the distribution beside the table is drawn in the screenshot, not an empty card
  const chart = page.getByTestId('proxies-distribution');
  await expect(chart.locator('.recharts-bar-rectangle')).not.toHaveCount(0);
  // each bar carries its count, and the counts add up to the proxies that answered (every
  // demo proxy that answers reports its clusters); the cards add up to the proxies
  const stat = async (id: string) =>
    Number(
      ((await page.getByTestId(id).locator('div').last().textContent()) ?? '').replace(/,/g, ''),
    );
  const answered = await stat('stat-reachable');
  const barCounts = (await chart.locator('.recharts-label-list text').allTextContents())
    .filter((t) => t.trim() !== '')
    .map((t) => Number(t.replace(/,/g, '')));
  expect(barCounts.reduce((a, b) => a + b, 0)).toBe(answered);
  const notRunning = (await page.getByTestId('stat-not-running').count())
    ? await stat('stat-not-running')
    : 0;
  expect(answered + (await stat('stat-unreachable')) + notRunning).toBe(meshed.length);
});

test('the heaviest workloads add up to the rows of their proxies', async ({ page }) => {
  await page.goto(`${demo}/proxies`);
  const card = page.getByTestId('proxies-top-workloads');
  await expect(card.locator('thead')).toContainText('Clusters (sum)');
  const first = card.locator('tbody tr').first();
  await expect(first).toBeVisible();
  const [name, proxiesText, sumText] = await first.locator('td').allTextContents();
  const [namespace, workload] = (name ?? '')
    .replace(/unscoped$/, '')
    .trim()
    .split('/');
  const res = await fetch(
    `${demo}/api/proxies/fleet?namespace=${namespace}&workload=${workload}&limit=500`,
  );
  const { rows } = (await res.json()) as {
    rows: { status: string; activeClusters: number | null }[];
  };
  const read = rows.filter((r) => r.status === 'ok' && r.activeClusters !== null);
  const sum = read.reduce((a, r) => a + (r.activeClusters ?? 0), 0);
  expect(Number((sumText ?? '').replace(/,/g, ''))).toBe(sum);
  expect(proxiesText).toBe(
    read.length === rows.length ? String(rows.length) : `${read.length} of ${rows.length} read`,
  );
});

test('unscoped namespaces stand out at the top', async ({ page }) => {
  await page.goto(`${demo}/proxies`);
  const items = page.getByTestId('proxies-namespaces').locator('li[data-namespace]');
  await expect(items.first()).toBeVisible();
  const flags = await items.evaluateAll((els) => els.map((e) => e.hasAttribute('data-unscoped')));
  expect(flags.length).toBeGreaterThan(1);
  expect(flags[0]).toBe(true);
  // every unscoped namespace comes before every scoped one
  const firstScoped = flags.indexOf(false);
  if (firstScoped >= 0) expect(flags.slice(firstScoped).includes(true)).toBe(false);
  await expect(items.first()).toContainText('no Sidecar');
  // a gateway is no unscoped sidecar: istiod applies no Sidecar resource to it
  const gateways = page
    .getByTestId('proxies-namespaces')
    .locator('li[data-namespace="istio-system"]');
  await expect(gateways).toHaveCount(1);
  await expect(gateways).not.toHaveAttribute('data-unscoped');
  await page.getByTestId('filter-q').fill('istio-ingressgateway');
  await page.getByTestId('filter-q').press('Enter');
  await expect(page.getByTestId('proxies-table')).toContainText('not for a gateway');
  await expect(page.getByTestId('proxies-table')).not.toContainText('whole mesh');
});

test('clicking a proxy shows its istioctl cluster table', async ({ page }) => {
  const meshed = (await simPods()).filter(hasProxy);
  let target: SimPod | undefined;
  let clusters: number | null = null;
  for (const p of meshed) {
    clusters = await simActiveClusters(p);
    if (clusters !== null) {
      target = p;
      break;
    }
  }
  expect(target).toBeDefined();
  const key = podKeyOfObject(target!);
  await page.goto(`${demo}/proxies?q=${target!.metadata.name}`);
  await page.locator(`[data-row-key="${key}"]`).click();
  await expect(page).toHaveURL(
    new RegExp(`proxy=${encodeURIComponent(key).replace(/%2F/, '(%2F|/)')}`),
  );
  const detail = page.getByTestId('proxy-detail');
  await expect(detail).toContainText(`Proxy ${key}`);
  await expect(detail.getByTestId('cluster-table')).toContainText('SERVICE FQDN');
  await expect(detail.getByTestId('cluster-table')).toContainText('DESTINATION RULE');
  await expect(detail.getByTestId('cluster-table')).toContainText(
    `${clusters!.toLocaleString('en-US')} rows`,
  );
  // the deep link reopens the panel
  await page.goto(`${demo}/proxies?proxy=${key}`);
  await expect(page.getByTestId('proxy-detail')).toContainText(`Proxy ${key}`);
  await expect(page.getByTestId('cluster-table')).toContainText('outbound');
  await snap(page, 'proxies-detail');
});
