import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import type { FindingsReport } from '../lib/api/findings';
import { countByCode } from '../components/findings/summary';
import { base, PORTS, simUrl, snap } from './support';
import { podHref, podKey, podRefOf } from '../lib/refs/pod-ref';

const demo = base(PORTS.demo);

interface SimList {
  items: {
    metadata: { name: string; namespace?: string; labels?: Record<string, string> };
    spec: {
      containers: { name: string; args?: string[] }[];
      initContainers?: { name: string; restartPolicy?: string }[];
    };
  }[];
}

/**
 * The simulator's pods that meshdx can read: the demo keeps one stored without a spec (as a
 * corrupted object would sit in etcd), which every view leaves out and Findings names.
 */
async function simPods(): Promise<SimList['items']> {
  const res = await fetch(`${simUrl()}/api/v1/pods`);
  return ((await res.json()) as SimList).items.filter((p) => p.spec !== undefined);
}

/** A gateway's or waypoint's proxy: the pod's own workload, which no Sidecar resource scopes. */
const isGateway = (p: SimList['items'][number]) =>
  p.spec.containers.some(
    (c) =>
      c.name === 'istio-proxy' && ['router', 'waypoint'].some((r) => (c.args ?? []).includes(r)),
  );

// ztunnel (app=ztunnel) names its container istio-proxy too, but it is ambient's node proxy,
// not an Envoy of its pod
const hasProxy = (p: SimList['items'][number]) =>
  p.metadata.labels?.app !== 'ztunnel' &&
  (p.spec.containers.some((c) => c.name === 'istio-proxy') ||
    (p.spec.initContainers ?? []).some((c) => c.name === 'istio-proxy'));

/**
 * The findings report the page shows. Once in CI the answer held no report (its status was
 * not kept): it is asked again for up to 20 s, and the last answer is named when no report
 * comes.
 */
async function findingsReport(): Promise<FindingsReport> {
  let last = '';
  let report: FindingsReport | null = null;
  try {
    await expect
      .poll(
        async () => {
          const res = await fetch(`${demo}/api/findings`);
          const text = await res.text();
          last = `${res.status} ${text.slice(0, 300)}`;
          if (!res.ok) return false;
          report = JSON.parse(text) as FindingsReport;
          return true;
        },
        { timeout: 20_000 },
      )
      .toBe(true);
  } catch {
    throw new Error(`GET /api/findings never answered with a report; last answer: ${last}`);
  }
  return report as unknown as FindingsReport;
}

test('the header says which cluster is shown', async ({ page }) => {
  await page.goto(`${demo}/`);
  await expect(page.getByTestId('cluster-label')).toHaveText('meshdx-sim-demo');
});

test('overview counts what the simulator holds', async ({ page }) => {
  const pods = await simPods();
  await page.goto(`${demo}/`);
  await expect(page.getByTestId('stat-pods')).toContainText(String(pods.length));
  await expect(page.getByTestId('stat-meshed')).toContainText(String(pods.filter(hasProxy).length));
  const namespaces = new Set(pods.map((p) => p.metadata.namespace));
  for (const ns of namespaces)
    await expect(page.locator(`[data-namespace="${ns}"]`)).toHaveCount(1);
  // the ingress gateway's namespace has no sidecar for a Sidecar resource to scope
  const gateways = page.locator('[data-namespace="istio-system"]');
  await expect(gateways).toContainText('gateways only');
  await expect(gateways).not.toContainText('missing');
  // what needs attention: the worst finding code first, linking to Findings filtered to it
  const report = await findingsReport();
  const worst = report.groups?.[0] ?? countByCode(report.findings, report.catalog)[0];
  expect(worst).toBeDefined();
  const first = page.getByTestId('attention-card').locator('[data-attention-code]').first();
  await expect(first).toHaveAttribute('data-attention-code', worst!.code);
  await expect(first).toContainText(String(worst!.count));
  await snap(page, 'overview');
  await first.locator('a').click();
  await expect(page).toHaveURL(new RegExp(`/findings\\?code=${worst!.code}`));
});

for (const [view, table] of [
  ['timelines', 'pods-table'],
  ['proxies', 'proxies-table'],
] as const) {
  test(`${view} lists the meshed pods`, async ({ page }) => {
    const meshed = (await simPods()).filter(hasProxy);
    // Timelines also keeps the pods it saw deleted (earlier specs move the simulated clock)
    const kept =
      view === 'timelines'
        ? (
            (await (await fetch(`${demo}/api/timelines?limit=500`)).json()) as {
              rows: { deleted: boolean }[];
            }
          ).rows.filter((r) => r.deleted).length
        : 0;
    await page.goto(`${demo}/${view}`);
    const total = (meshed.length + kept).toLocaleString('en-US');
    // both are paged on the server: the pager counts every matching row
    await expect(page.getByTestId(table)).toBeVisible();
    await expect(
      page.getByTestId(view === 'proxies' ? 'fleet-pager' : 'timelines-pager'),
    ).toContainText(`of ${total}`);
    await snap(page, view);
  });
}

test('a deep link reopens the same selection and filters', async ({ page }) => {
  const pod = (await simPods()).filter(hasProxy)[0];
  expect(pod).toBeDefined();
  const ns = pod!.metadata.namespace!;
  const name = pod!.metadata.name;
  await page.goto(`${demo}/timelines?namespace=${ns}&pod=${podKey(ns, name)}`);
  await expect(page.getByTestId('filter-namespace')).toHaveValue(ns);
  await expect(page.getByTestId('pod-detail')).toContainText(podKey(ns, name));
  await expect(page.getByTestId('pod-detail')).toContainText('istio-proxy');
  await snap(page, 'timelines-deep-link');
});

test('a link with a misspelt filter opens the view and names what it ignored', async ({ page }) => {
  const ns = (await simPods()).filter(hasProxy)[0]!.metadata.namespace!;
  // "namespce" is no parameter of Timelines: the view opens unfiltered and says so
  await page.goto(`${demo}/timelines?namespce=${ns}&verdict=race&utm_source=chat`);
  const note = page.getByTestId('ignored-params');
  await expect(note).toContainText('2 parameters Timelines does not read');
  await expect(note).toContainText(`namespce=${ns}`);
  await expect(note).toContainText('did you mean namespace?');
  await expect(note).toContainText('utm_source=chat');
  // what it does read still applies
  await expect(page.getByTestId('filter-verdict')).toHaveValue('race');
  await expect(page.getByTestId('filter-namespace')).toHaveValue('');
  await snap(page, 'timelines-ignored-params');
  const axe = await new AxeBuilder({ page })
    .include('[data-testid="ignored-params"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);
  await note.getByRole('link', { name: 'Open this view without them' }).click();
  await expect(page).toHaveURL(/\/timelines\?verdict=race$/);
  await expect(page.getByTestId('ignored-params')).toHaveCount(0);
  await expect(page.getByTestId('filter-verdict')).toHaveValue('race');
});

test('choosing a namespace writes it to the URL', async ({ page }) => {
  const ns = (await simPods()).filter(hasProxy)[0]!.metadata.namespace!;
  await page.goto(`${demo}/proxies`);
  await page.getByTestId('filter-namespace').selectOption(ns);
  await expect(page).toHaveURL(new RegExp(`namespace=${ns}`));
});

test('scoping ranks meshed namespaces without a default Sidecar', async ({ page }) => {
  await page.goto(`${demo}/scoping`);
  await expect(page.getByTestId('scoping-table')).toBeVisible();
  // gateways and waypoints ignore Sidecar resources: only namespaces with sidecars are ranked
  const sidecarNs = new Set(
    (await simPods()).filter((p) => hasProxy(p) && !isGateway(p)).map((p) => p.metadata.namespace),
  );
  await expect(page.getByTestId('stat-meshed-ns')).toContainText(String(sidecarNs.size));
  await snap(page, 'scoping');
});

test('incidents finds the pod that holds an IP', async ({ page }) => {
  const res = await fetch(`${simUrl()}/api/v1/pods`);
  const list = (await res.json()) as {
    items: { metadata: { name: string }; status?: { podIP?: string } }[];
  };
  const withIp = list.items.find((p) => p.status?.podIP);
  expect(withIp).toBeDefined();
  await page.goto(`${demo}/incidents?ip=${withIp!.status!.podIP}`);
  await expect(page.getByTestId('ip-table')).toContainText(withIp!.metadata.name);
  await snap(page, 'incidents');
});

test('findings lists coded findings, counted per code, worst first', async ({ page }) => {
  const report = (await (await fetch(`${demo}/api/findings`)).json()) as {
    findings: { code: string; severity: string }[];
  };
  expect(report.findings.length).toBeGreaterThan(0);
  const counts = new Map<string, number>();
  for (const f of report.findings) counts.set(f.code, (counts.get(f.code) ?? 0) + 1);
  await page.goto(`${demo}/findings`);
  await expect(page.getByTestId('findings-card')).toBeVisible();
  for (const [code, n] of counts) {
    await expect(page.locator(`[data-code-count="${code}"]`)).toContainText(String(n));
  }
  // the list starts with the worst severity present
  const worst = ['error', 'warning', 'info'].find((s) =>
    report.findings.some((f) => f.severity === s),
  );
  await expect(page.getByTestId('findings-list').locator('tbody tr').first()).toContainText(worst!);
  await snap(page, 'findings');
});

test('findings open on a handful of groups, harm first; opening a group lists its objects', async ({
  page,
}) => {
  const report = await findingsReport();
  const groups = report.groups ?? [];
  // one row per code: fewer rows than findings, each counting its objects
  expect(groups.length).toBeGreaterThan(0);
  expect(groups.length).toBeLessThan(report.findings.length);
  for (const g of groups) {
    expect(g.count).toBe(report.findings.filter((f) => f.code === g.code).length);
    expect(g.objects).toHaveLength(g.count);
  }
  // the startup race of 51 workloads is one group whose fix is the mesh-wide hold
  const race = groups.find((g) => g.code === 'MDX0101');
  expect(race?.count).toBeGreaterThan(10);
  expect(race?.fix?.scope).toBe('mesh');
  await page.goto(`${demo}/findings`);
  const rows = page.getByTestId('finding-groups').locator('[data-group-code]');
  await expect(rows).toHaveCount(groups.length);
  await expect(rows.first()).toHaveAttribute('data-group-code', groups[0]!.code);
  const raceRow = page.locator('[data-group-code="MDX0101"]');
  await expect(raceRow.getByTestId('group-fix')).toContainText('mesh-wide');
  await raceRow.getByTestId('group-objects').locator('summary').click();
  await expect(raceRow.getByTestId('group-objects').locator('li')).toHaveCount(race!.count);
  await snap(page, 'findings-groups');
});

test('a pod page shows its containers and events', async ({ page }) => {
  const pod = (await simPods()).filter(hasProxy)[0]!;
  await page.goto(`${demo}${podHref(podRefOf(pod))}`);
  await expect(page.getByTestId('pod-page')).toContainText('istio-proxy');
  await snap(page, 'pod');
});
