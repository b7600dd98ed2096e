import { expect, test } from '@playwright/test';
import type { ConfigMap, KubeEvent, Pod, Sidecar } from '../lib/kube/types';
import { proxyTargets } from '../lib/proxies/target';
import { analyzePods } from '../lib/timeline/analyze';
import { summarizeFleet } from '../lib/timeline/fleet';
import { inTimelinesFleet } from '../lib/timeline/fleet-view';
import { parseMeshConfig } from '../lib/timeline/meshconfig';
import { aliveDuring } from '../lib/timeline/window';
import { base, PORTS, simUrl, snap } from './support';
import { podKey, podPageHref, podPath } from '../lib/refs/pod-ref';

const demo = base(PORTS.demo);

async function simList<T>(path: string): Promise<T[]> {
  const res = await fetch(`${simUrl()}${path}`);
  const items = ((await res.json()) as { items: T[] }).items;
  // the demo stores one pod without a spec on purpose: meshdx leaves it out of every view
  return path.endsWith('/pods')
    ? items.filter((p) => (p as { spec?: unknown }).spec !== undefined)
    : items;
}

/** Envoy's server.initialization_time_ms of one pod, read from the simulator as meshdx reads it. */
async function envoyInit(p: Pod): Promise<number | null> {
  const ns = p.metadata.namespace ?? 'default';
  const res = await fetch(
    `${simUrl()}/api/v1/namespaces/${ns}/pods/${p.metadata.name}:15090/proxy/stats/prometheus`,
  );
  if (!res.ok) return null;
  const text = await res.text();
  const num = (suffix: string) =>
    Number(
      new RegExp(`^envoy_server_initialization_time_ms_${suffix}\\S* (\\S+)$`, 'm').exec(text)?.[1],
    );
  return num('count') === 1 && Number.isFinite(num('sum')) ? num('sum') : null;
}

/**
 * lib/timeline's verdicts on the simulator's own pods, events and mesh config, with the Envoy
 * init times meshdx learns by scraping: of every proxy the Proxies scan reaches, and of `also`.
 */
async function expectedTimelines(also: { namespace: string; name: string }[] = []) {
  const [pods, events, cms, sidecars] = await Promise.all([
    simList<Pod>('/api/v1/pods'),
    simList<KubeEvent>('/api/v1/events'),
    simList<ConfigMap>('/api/v1/namespaces/istio-system/configmaps'),
    simList<Sidecar>('/apis/networking.istio.io/v1/sidecars'),
  ]);
  const cm = cms.find((c) => c.metadata.name === 'istio');
  const mesh = cm ? parseMeshConfig(JSON.stringify(cm)).settings : undefined;
  const scanned = new Set(
    proxyTargets(pods, sidecars)
      .targets.filter((t) => t.notRunning === null)
      .map((t) => podKey(t.namespace, t.name)),
  );
  for (const a of also) scanned.add(podKey(a.namespace, a.name));
  const envoyInitMs: Record<string, number> = {};
  await Promise.all(
    pods
      .filter((p) => scanned.has(podKey(p.metadata.namespace ?? 'default', p.metadata.name)))
      .map(async (p) => {
        const ms = await envoyInit(p);
        if (ms !== null && p.metadata.uid) envoyInitMs[p.metadata.uid] = ms;
      }),
  );
  return analyzePods(pods, { ...(mesh ? { mesh } : {}), events, envoyInitMs }).filter(
    inTimelinesFleet,
  );
}

/** Runs the Proxies scan, which scrapes every reachable proxy (and so teaches Timelines). */
async function scanProxies(): Promise<void> {
  const res = await fetch(`${demo}/api/proxies/fleet`);
  expect(res.ok).toBe(true);
}

/**
 * Pods meshdx saw and that are gone now (the view keeps them on purpose): the simulator no
 * longer has them, so their rows come from the server; none of them may be live in the sim.
 */
async function deletedRows(livePods: { namespace: string; name: string }[]) {
  const fleet = (await (await fetch(`${demo}/api/timelines?limit=500`)).json()) as {
    rows: { namespace: string; name: string; deleted: boolean; verdicts: string[] }[];
  };
  const live = new Set(livePods.map((p) => podKey(p.namespace, p.name)));
  const deleted = fleet.rows.filter((r) => r.deleted);
  for (const r of deleted) expect(live.has(podKey(r.namespace, r.name))).toBe(false);
  return deleted;
}

test('timelines shows the verdict counts lib/timeline computes from the cluster', async ({
  page,
}) => {
  await scanProxies();
  const want = await expectedTimelines();
  const counts: Record<string, number> = { ...summarizeFleet(want).byVerdict };
  expect(counts.race ?? 0).toBeGreaterThan(0);
  const gone = await deletedRows(want);
  for (const r of gone) for (const v of r.verdicts) counts[v] = (counts[v] ?? 0) + 1;
  const total = want.length + gone.length;
  await page.goto(`${demo}/timelines`);
  await expect(page.getByTestId('stat-pods')).toContainText(String(total));
  for (const v of [
    'race',
    'race-restart',
    'drain-too-short',
    'grace-exceeded',
    'unknown',
    'classic-ok',
    'held-ok',
    'native-ok',
  ]) {
    await expect(page.getByTestId(`stat-verdict-${v}`)).toContainText(String(counts[v] ?? 0));
  }
  // the rows are paged on the server: the pager counts every matching pod
  await expect(page.getByTestId('timelines-pager')).toContainText(`of ${total}`);
  await expect(
    page.getByTestId('gap-chart').locator('.recharts-bar-rectangle').first(),
  ).toBeVisible();
  await expect(page.getByTestId('workload-fix').first()).toBeVisible();
  await snap(page, 'timelines-fleet');
});

test('a pod with more verdicts than a row shows counts the rest and names them all', async ({
  page,
}) => {
  const fleet = (await (await fetch(`${demo}/api/timelines?limit=500`)).json()) as {
    rows: { namespace: string; name: string; verdicts: string[] }[];
  };
  const many = fleet.rows.find((r) => r.verdicts.length > 2);
  expect(many, 'the demo has a pod with three verdicts').toBeDefined();
  const { namespace, name, verdicts } = many!;
  await page.goto(`${demo}/timelines?namespace=${namespace}&q=${name}`);
  const row = page.getByTestId('pods-table').getByRole('row').filter({ hasText: name });
  await expect(row.getByTestId('more-verdicts')).toHaveText(`+${verdicts.length - 2}`);
  const cell = row.locator(`[title*="${verdicts[verdicts.length - 1]}"]`);
  await expect(cell).toHaveCount(1);
  for (const v of verdicts) expect(await cell.getAttribute('title')).toContain(v);
});

test('a racing pod opens from a deep link with the race on its Gantt', async ({ page }) => {
  await scanProxies();
  const candidate = (await expectedTimelines()).find((t) =>
    t.verdicts.some((v) => v.verdict === 'race' || v.verdict === 'race-restart'),
  );
  expect(candidate).toBeDefined();
  const { namespace, name } = candidate!;
  // opening the pod scrapes its proxy too: judge it with what that gives
  const racing = (await expectedTimelines([{ namespace, name }])).find(
    (t) => t.namespace === namespace && t.name === name,
  );
  await page.goto(`${demo}/timelines?namespace=${namespace}&pod=${podKey(namespace, name)}`);
  const card = page.getByTestId('pod-detail');
  await expect(card).toContainText(podKey(namespace, name));
  await expect(card.getByTestId('gantt-chart')).toContainText('istio-proxy');
  await expect(
    card.getByTestId('gantt-chart').locator('.recharts-bar-rectangle').first(),
  ).toBeVisible();
  await expect(card.getByTestId('proxy-ready')).toContainText(racing!.proxyReady.source);
  const verdict = racing!.verdicts.find((v) => v.verdict.startsWith('race'))!.verdict;
  await expect(card.getByTestId(`pod-fix-${verdict}`)).toContainText(
    'holdApplicationUntilProxyStarts',
  );
  await card.scrollIntoViewIfNeeded();
  await snap(page, 'timelines-gantt');
});

test('a time window in the link keeps the pods alive during it', async ({ page }) => {
  const fleet = (await (await fetch(`${demo}/api/timelines?limit=500`)).json()) as {
    rows: { startedAt: string | null; deletedAt: string | null }[];
  };
  const starts = fleet.rows
    .map((r) => r.startedAt)
    .filter((s): s is string => s !== null)
    .sort();
  const to = starts[Math.floor(starts.length / 3)] as string;
  const from = new Date(Date.parse(to) - 60_000).toISOString();
  const expected = fleet.rows.filter((r) => aliveDuring(r, from, to)).length;
  expect(expected).toBeGreaterThan(0);
  expect(expected).toBeLessThan(fleet.rows.length);
  await page.goto(`${demo}/timelines?from=${from}&to=${to}`);
  await expect(page.getByTestId('timelines-pager')).toContainText(`of ${expected}`);
  await expect(page.getByTestId('filter-from')).toHaveValue(from);
});

test('a wrong window in a Timelines link is a 400 naming the parameter, and the page says so', async ({
  page,
}) => {
  for (const [q, name] of [
    ['from=1', 'from'],
    ['from=2026-11-01T12:00:00Z&to=2026-11-01T10:00:00Z', 'to'],
    ['to=yesterday', 'to'],
  ] as const) {
    const res = await fetch(`${demo}/api/timelines?${q}`);
    expect(res.status, q).toBe(400);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.message, q).toContain(name);
  }
  await page.goto(`${demo}/timelines?namespace=shop&from=1`);
  await expect(page.getByTestId('error-panel')).toContainText('from');
  await expect(page.getByText('Open the view without a window')).toHaveAttribute(
    'href',
    '/timelines?namespace=shop',
  );
});

test("a row's pod link opens the pod's page, a deleted pod's too, marked gone", async ({
  page,
}) => {
  const fleet = (await (await fetch(`${demo}/api/timelines?limit=500`)).json()) as {
    rows: { namespace: string; name: string; uid: string | null; deleted: boolean }[];
  };
  const row = fleet.rows.find((r) => r.deleted) ?? fleet.rows[0];
  expect(row, 'the demo has a pod on Timelines').toBeDefined();
  const { namespace, name, uid, deleted } = row!;
  await page.goto(`${demo}/timelines?namespace=${namespace}&q=${name}`);
  const link = page
    .getByTestId('pods-table')
    .getByRole('row')
    .filter({ hasText: name })
    .getByTestId('pod-link')
    .first();
  // with its uid: the page of this pod, not of a later pod of the same name
  await expect(link).toHaveAttribute('href', podPageHref({ namespace, name, uid }));
  const res = await page.goto(`${demo}${podPageHref({ namespace, name, uid })}`);
  expect(res?.status()).toBe(200);
  await expect(page.getByTestId('pod-page')).toHaveAttribute('data-gone', String(deleted));
  if (deleted) await expect(page.getByTestId('pod-gone')).toContainText('no longer exists');
  const api = await fetch(`${demo}/api/pods/${podPath({ namespace, name })}`);
  expect(api.status).toBe(200);
  expect(((await api.json()) as { gone: boolean }).gone).toBe(deleted);
});
