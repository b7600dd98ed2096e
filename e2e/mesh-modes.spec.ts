import { expect, test } from '@playwright/test';
import type { Namespace, Node, Pod } from '../lib/kube/types';
import { podDataplane } from '../lib/dataplane/mode';
import { nodeVersions } from '../lib/dataplane/native-sidecar';
import { base, PORTS, simUrl, snap } from './support';

const demo = base(PORTS.demo);

async function simList<T>(path: string): Promise<T[]> {
  const res = await fetch(`${simUrl()}${path}`);
  expect(res.ok, path).toBe(true);
  return ((await res.json()) as { items: T[] }).items;
}

test('overview shows the ambient namespaces, their pods and the ztunnel on every node', async ({
  page,
}) => {
  const [namespaces, pods] = await Promise.all([
    simList<Namespace>('/api/v1/namespaces'),
    simList<Pod>('/api/v1/pods'),
  ]);
  const ambientNs = namespaces.filter(
    (n) => n.metadata.labels?.['istio.io/dataplane-mode'] === 'ambient',
  );
  expect(ambientNs.length).toBeGreaterThan(0);
  const nsByName = new Map(namespaces.map((n) => [n.metadata.name, n]));
  const ambientPods = pods.filter(
    (p) => podDataplane(p, nsByName.get(p.metadata.namespace ?? '')).mode === 'ambient',
  );
  const ztunnels = pods.filter(
    (p) => p.metadata.namespace === 'istio-system' && p.metadata.labels?.app === 'ztunnel',
  );
  expect(ztunnels.length).toBe(3);

  await page.goto(`${demo}/`);
  const stat = (id: string, n: number) =>
    expect(page.getByTestId(id)).toHaveText(new RegExp(`\\D${n}$`));
  await stat('stat-ambient-ns', ambientNs.length);
  await stat('stat-ambient-pods', ambientPods.length);
  await stat('stat-ztunnels', ztunnels.length);
  await stat('stat-waypoints', 1);
  for (const ns of ambientNs) {
    await expect(
      page.locator(`[data-namespace="${ns.metadata.name}"] [data-dataplane="ambient"]`),
    ).toBeVisible();
  }
  // the ztunnel table: one per node, with the ambient pods of that node
  const table = page.getByTestId('ztunnel-nodes');
  for (const z of ztunnels) {
    const node = z.spec.nodeName ?? '';
    const onNode = ambientPods.filter((p) => p.spec.nodeName === node).length;
    const row = table.locator(`[data-ztunnel="${z.metadata.name}"]`);
    await expect(row).toContainText(node);
    await expect(row.locator('td').last()).toHaveText(String(onNode));
  }
  await expect(
    page.getByTestId('waypoints').locator('[data-waypoint="mesh-ambient/waypoint"]'),
  ).toBeVisible();
  // readiness: the namespace mid-migration says so, with what to rewrite
  const mid = page.locator('[data-ambient-ns="mesh-migrating"]');
  await expect(mid).toHaveAttribute('data-status', 'mid-migration');
  for (const code of ['MDX0602', 'MDX0605', 'MDX0606', 'MDX0607']) {
    await expect(mid.locator(`[data-code="${code}"]`)).toBeVisible();
  }
  await expect(page.locator('[data-ambient-ns="mesh-ambient"]')).toHaveAttribute(
    'data-status',
    'migrated',
  );
  await snap(page, 'overview-ambient');
});

test('proxies list each ztunnel apart from the Envoy proxies, and the waypoint among them', async ({
  page,
}) => {
  const pods = await simList<Pod>('/api/v1/pods');
  const ztunnels = pods.filter((p) => p.metadata.labels?.app === 'ztunnel');
  await page.goto(`${demo}/proxies`);
  const table = page.getByTestId('ztunnels-table');
  for (const z of ztunnels) {
    await expect(
      table.locator(`[data-ztunnel-key="istio-system/${z.metadata.name}"]`),
    ).toContainText(z.spec.nodeName ?? '');
  }
  // the waypoint is an Envoy: it is in the fleet with its cluster count
  const waypoint = pods.find((p) => p.metadata.labels?.app === 'waypoint');
  expect(waypoint).toBeDefined();
  await page.goto(`${demo}/proxies?q=${waypoint!.metadata.name}`);
  await expect(page.getByTestId('proxies-table')).toContainText('waypoint');
  await page.goto(`${demo}/proxies?ztunnel=istio-system/${ztunnels[0]!.metadata.name}`);
  await expect(page.getByTestId('ztunnel-detail')).toContainText(
    `ztunnel istio-system/${ztunnels[0]!.metadata.name}`,
  );
  await snap(page, 'proxies-ztunnels');
});

test('timelines warn about the workloads whose next restart flips the sidecar mode', async ({
  page,
}) => {
  const nodes = nodeVersions(await simList<Node>('/api/v1/nodes'));
  const old = nodes.filter((n) => (n.minor ?? 0) < 33);
  expect(old.length).toBeGreaterThan(0);
  await page.goto(`${demo}/timelines?namespace=native-lab`);
  const card = page.getByTestId('modes-card');
  await expect(card.getByTestId('injection-summary')).toContainText('classic sidecar');
  for (const n of old) await expect(card.getByTestId('node-versions')).toContainText(n.name);
  const checkout = card.locator('[data-mode-workload="native-lab/checkout"]');
  await expect(checkout).toHaveAttribute('data-flips', 'true');
  await expect(checkout).toContainText('MDX0113');
  // pinned by the annotation: no flip
  await expect(card.locator('[data-mode-workload="native-lab/ledger-api"]')).not.toHaveAttribute(
    'data-flips',
    'true',
  );
  await expect(card.getByTestId('mode-flip-count')).toContainText('1 workload');
  // the native proxy that never got ready blocks its app
  await expect(page.getByTestId('stat-verdict-native-not-ready')).toHaveText(
    /native-not-ready\s*[1-9]\d*$/,
  );
  await expect(page.getByTestId('pods-table')).toContainText('native-not-ready');
  await snap(page, 'timelines-modes');
});
