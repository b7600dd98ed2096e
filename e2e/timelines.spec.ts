import { expect, test } from '@playwright/test';
import type { ConfigMap, KubeEvent, Pod } from '../lib/kube/types';
import { analyzePods } from '../lib/timeline/analyze';
import { summarizeFleet } from '../lib/timeline/fleet';
import { parseMeshConfig } from '../lib/timeline/meshconfig';
import { base, PORTS, simUrl, snap } from './support';

const demo = base(PORTS.demo);

async function simList<T>(path: string): Promise<T[]> {
  const res = await fetch(`${simUrl()}${path}`);
  return ((await res.json()) as { items: T[] }).items;
}

/** lib/timeline's verdicts on the simulator's own pods, events and mesh config. */
async function expectedTimelines() {
  const [pods, events, cms] = await Promise.all([
    simList<Pod>('/api/v1/pods'),
    simList<KubeEvent>('/api/v1/events'),
    simList<ConfigMap>('/api/v1/namespaces/istio-system/configmaps'),
  ]);
  const cm = cms.find((c) => c.metadata.name === 'istio');
  const mesh = cm ? parseMeshConfig(JSON.stringify(cm)).settings : undefined;
  return analyzePods(pods, { ...(mesh ? { mesh } : {}), events }).filter((t) => t.mode !== 'none');
}

/**
 * Pods meshdx saw and that are gone now (the view keeps them on purpose): the simulator no
 * longer has them, so their rows come from the server; none of them may be live in the sim.
 */
async function deletedRows(livePods: { namespace: string; name: string }[]) {
  const fleet = (await (await fetch(`${demo}/api/timelines`)).json()) as {
    rows: { namespace: string; name: string; deleted: boolean; verdicts: string[] }[];
  };
  const live = new Set(livePods.map((p) => `${p.namespace}/${p.name}`));
  const deleted = fleet.rows.filter((r) => r.deleted);
  for (const r of deleted) expect(live.has(`${r.namespace}/${r.name}`)).toBe(false);
  return deleted;
}

test('timelines shows the verdict counts lib/timeline computes from the cluster', async ({
  page,
}) => {
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
  await expect(page.getByTestId('pods-table')).toContainText(`${total} rows`);
  await expect(
    page.getByTestId('gap-chart').locator('.recharts-bar-rectangle').first(),
  ).toBeVisible();
  await expect(page.getByTestId('workload-fix').first()).toBeVisible();
  await snap(page, 'timelines-fleet');
});

test('a racing pod opens from a deep link with the race on its Gantt', async ({ page }) => {
  const racing = (await expectedTimelines()).find((t) =>
    t.verdicts.some((v) => v.verdict === 'race' || v.verdict === 'race-restart'),
  );
  expect(racing).toBeDefined();
  const { namespace, name } = racing!;
  await page.goto(`${demo}/timelines?namespace=${namespace}&pod=${namespace}/${name}`);
  const card = page.getByTestId('pod-detail');
  await expect(card).toContainText(`${namespace}/${name}`);
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
