import { expect, test, type Page } from '@playwright/test';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { base, DEMO_DATA, PORTS, simUrlOf, snap } from './support';
import { attr, findingsAgree, stat, statNumbers } from './screen-figures';
import { podHref, podKey, podPath } from '../lib/refs/pod-ref';
import { workloadText } from '../lib/refs/workload-ref';

/**
 * Every number on the screen adds up: on each view of a cluster, every card equals the sum it
 * names in its table, every chart's total equals its card, and the views that show the same
 * thing agree (Overview's meshed pods, Timelines' live ones, Proxies' proxies; Overview's and
 * Findings' kinds of finding). Checked as the user sees them (the cards' text and the figures the
 * tables and charts carry in the DOM), before and after a `kubectl rollout restart`, and on
 * Incidents with Live on for a simulated minute (on phantom-cross-ns, whose clients keep
 * failing). The demo scenario holds ambient namespaces (ztunnels, a waypoint) beside its
 * sidecars; phantom-503 is the rollout with phantom 503s; ambient is a cluster of ztunnels, a
 * waypoint and a namespace mid-migration, with a rollout one ztunnel did not follow.
 *
 * It moves the clusters' clocks and rolls their Deployments, so it runs on a demo of its own
 * (PORTS.rolloutDemo), beside the specs that read the first demo and those that move the second.
 */
const demo = base(PORTS.rolloutDemo);
const run = promisify(execFile);

async function advance(scenario: string, ms: number): Promise<void> {
  const sim = simUrlOf(scenario, DEMO_DATA.rolloutDemo);
  for (let done = 0; done < ms; done += 5000) {
    const res = await fetch(`${sim}/_sim/advance?ms=5000`, { method: 'POST' });
    expect(res.status).toBe(200);
    // the dashboard's watches see each step
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** The API the pages read, polled until the views that show the same pods agree. */
async function settled(ctx: string): Promise<void> {
  const json = async <T>(p: string) =>
    (await (await fetch(`${demo}${p}${p.includes('?') ? '&' : '?'}context=${ctx}`)).json()) as T;
  await expect
    .poll(
      async () => {
        const [inv, tl] = await Promise.all([
          json<{ totals: { meshedPods: number } }>('/api/inventory'),
          json<{ page: { counts: { pods: number; deleted: number } } }>('/api/timelines'),
        ]);
        return tl.page.counts.pods - tl.page.counts.deleted - inv.totals.meshedPods;
      },
      { timeout: 30_000, message: 'Timelines live pods and Overview meshed pods to agree' },
    )
    .toBe(0);
}

/** When this run last had the Proxies view scan the cluster. */
let lastScan = 0;

interface Seen {
  meshed: number;
  deleted: number;
  kinds: number;
}

/** Every view of one cluster, each checked against itself and the others. */
async function checkViews(page: Page, ctx: string, shot: string): Promise<Seen> {
  // the page is left on Overview
  const kinds = await findingsAgree(page, demo, ctx);
  const meshed = await stat(page, 'stat-meshed');

  // Timelines: the Deleted card is the note's figure; live meshed pods are Overview's
  await page.goto(`${demo}/timelines?context=${ctx}`);
  const pods = await stat(page, 'stat-pods');
  const deleted = await stat(page, 'stat-deleted');
  const note = 'deleted-note';
  expect(await attr(page, note, 'data-shown'), 'Deleted card vs note').toBe(deleted);
  expect(await attr(page, note, 'data-in-fleet'), 'unfiltered: the fleet is the card').toBe(
    deleted,
  );
  expect(await attr(page, note, 'data-kept')).toBeGreaterThanOrEqual(deleted);
  expect(pods - deleted, 'Timelines live pods vs Overview meshed pods').toBe(meshed);
  await snap(page, `${shot}-timelines`);

  // Scoping: each namespace's waste is its clusters today minus its minimum
  await page.goto(`${demo}/scoping?context=${ctx}`);
  await expect(page.getByTestId('scoping-table')).toBeVisible({ timeout: 60_000 });
  const wastes = await page
    .locator('[data-testid="scoping-waste"][data-waste]')
    .evaluateAll((cells) =>
      cells.map((c) => ({
        waste: Number(c.getAttribute('data-waste')),
        current: Number(c.getAttribute('data-current')),
        minimum: Number(c.getAttribute('data-minimum')),
        text: c.textContent ?? '',
      })),
    );
  expect(wastes.length).toBeGreaterThan(0);
  for (const w of wastes) {
    expect(w.waste, w.text).toBe(w.current - w.minimum);
    expect(w.text.replace(/,/g, '')).toContain(String(w.waste));
  }
  await snap(page, `${shot}-scoping`);

  // Incidents: cards, chart, pods table and requests table over the same failing requests
  await page.goto(`${demo}/incidents?context=${ctx}`);
  await checkIncidents(page);
  await snap(page, `${shot}-incidents`);

  // Proxies: the cards add up to the proxies, which are Overview's meshed pods. A scan serves
  // the view for 15 s (server/screens/proxies/fleet.ts FLEET_CACHE_MS): one from before a change
  // says when it was made; the view is compared once a scan of the cluster as it is now is due.
  await page.waitForTimeout(Math.max(0, lastScan + 16_000 - Date.now()));
  await page.goto(`${demo}/proxies?context=${ctx}`);
  const proxies = await stat(page, 'stat-proxies');
  let parts = (await stat(page, 'stat-reachable')) + (await stat(page, 'stat-unreachable'));
  if (await page.getByTestId('stat-not-running').count())
    parts += await stat(page, 'stat-not-running');
  if (await page.getByTestId('stat-unknown-late').count())
    parts += (await statNumbers(page, 'stat-unknown-late')).reduce((a, b) => a + b, 0);
  expect(parts, 'Proxies cards vs proxies').toBe(proxies);
  expect(proxies, 'Proxies vs Overview meshed pods').toBe(meshed);
  lastScan = Date.now();

  return { meshed, deleted, kinds };
}

async function checkIncidents(page: Page): Promise<number> {
  await expect(page.getByTestId('stat-failing')).toBeVisible({ timeout: 60_000 });
  const failing = await stat(page, 'stat-failing');
  const chart = page.getByTestId('incident-chart');
  expect(Number(await chart.getAttribute('data-total')), 'chart total vs Failing card').toBe(
    failing,
  );
  await expect(page.getByTestId('incident-requests')).toContainText(`Failing requests (${failing}`);
  // answered from the store (no filter asked): the recorded ones are the failing ones
  if (await page.getByTestId('stat-recorded').count())
    expect(await stat(page, 'stat-recorded'), 'recorded vs failing').toBe(failing);
  if (failing > 0) {
    const total = 'incident-pods-total';
    expect(await attr(page, total, 'data-failed'), 'pods table vs Failing card').toBe(failing);
    expect(await attr(page, total, 'data-to-gone'), 'pods table vs gone card').toBe(
      await stat(page, 'stat-gone'),
    );
    const [involved] = await statNumbers(page, 'stat-pods-involved');
    expect(await attr(page, total, 'data-rows')).toBe(involved);
  }
  return failing;
}

test.describe.configure({ mode: 'parallel' });

/**
 * The Deployment each scenario rolls: payments in the sidecar scenarios; in ambient, reviews of
 * the namespace mid-migration, whose sidecar pods are replaced (the ambient namespace's own pods
 * have no proxy of their own, so Timelines and Proxies never list them).
 */
const ROLLOUT = {
  demo: ['shop', 'payments'],
  'phantom-503': ['shop', 'payments'],
  ambient: ['mesh-migrating', 'reviews'],
} as const;

for (const scenario of ['demo', 'phantom-503', 'ambient'] as const) {
  test(`${scenario}: every number adds up, after a rollout too`, async ({ page }) => {
    test.setTimeout(scenario === 'phantom-503' ? 300_000 : 240_000);
    const [namespace, deployment] = ROLLOUT[scenario];
    const ctx = `meshdx-sim-${scenario}`;
    await settled(ctx);
    const before = await checkViews(page, ctx, `invariants-${scenario}`);

    // a rollout as an SRE starts one: kubectl against the cluster
    const kubeconfig = path.join(DEMO_DATA.rolloutDemo, `sim-${scenario}.kubeconfig`);
    await run('kubectl', [
      '--kubeconfig',
      kubeconfig,
      '-n',
      namespace,
      'rollout',
      'restart',
      `deployment/${deployment}`,
    ]);
    await advance(scenario, 90_000);
    await settled(ctx);
    const after = await checkViews(page, ctx, `invariants-${scenario}-rollout`);
    // one drain figure per pod across Incidents, Timelines, the pod page and Findings
    const drained = await checkDrainFigures(page, ctx, `invariants-${scenario}-drain`);
    if (scenario === 'phantom-503')
      expect(drained, 'pods with failures at termination').toBeGreaterThan(0);
    // the replaced pods are kept and counted as deleted
    expect(after.deleted).toBeGreaterThan(before.deleted);
    // phantom-503's clients stop calling after its first minute; in phantom-cross-ns they keep
    // failing on a gone pod still in their endpoints: Live there has new failures to count
    if (scenario === 'phantom-503') await liveMinute(page, 'phantom-cross-ns');
  });
}

interface PodFigure {
  pod: string;
  ref: { namespace: string; name: string };
  incidents: number;
  /** Timelines' startup mode of the pod: a drain verdict is judged only where a proxy drains. */
  mode: string;
  timelines: number | null;
  podPage: number | null;
  workload: string;
}

/**
 * One drain figure per pod: the failing requests recorded against a pod's termination are the
 * same number in Incidents (its upstream pod row: sent while terminating or after it went), in
 * Timelines (the drain verdict's failedRequests), on the pod page (its failures by state) and in
 * Findings (the workload's MDX0105 object: the sum over its pods).
 */
async function checkDrainFigures(page: Page, ctx: string, shot: string): Promise<number> {
  const json = async <T>(p: string): Promise<T> => {
    const res = await fetch(`${demo}${p}${p.includes('?') ? '&' : '?'}context=${ctx}`);
    expect(res.status, p).toBe(200);
    return (await res.json()) as T;
  };
  const inc = await json<{
    pods: {
      pod: { namespace: string; name: string; uid?: string | null } | null;
      byState: Record<string, number>;
    }[];
  }>('/api/incidents');
  const figures: PodFigure[] = [];
  for (const row of inc.pods) {
    const n = (row.byState.terminating ?? 0) + (row.byState.terminated ?? 0);
    if (!row.pod || n === 0) continue;
    const { namespace, name, uid } = row.pod;
    const q = uid ? `?uid=${uid}` : '';
    const tl = await json<{
      mode: string;
      workloadKind: string;
      workload: string;
      verdicts: { verdict: string; evidence: Record<string, unknown> }[];
    }>(`/api/timelines/${podPath(row.pod)}${q}`);
    const drain = tl.verdicts.find((v) => v.verdict === 'drain-too-short');
    const pod = await json<{ failures: { byState: Record<string, number> } | null }>(
      `/api/pods/${podPath(row.pod)}`,
    );
    figures.push({
      pod: podKey(namespace, name),
      ref: { namespace, name },
      incidents: n,
      mode: tl.mode,
      timelines:
        typeof drain?.evidence.failedRequests === 'number' ? drain.evidence.failedRequests : null,
      podPage: pod.failures
        ? (pod.failures.byState.terminating ?? 0) + (pod.failures.byState.gone ?? 0)
        : null,
      workload: workloadText({ kind: tl.workloadKind, namespace, name: tl.workload }),
    });
  }
  // an ambient pod (or a gateway, or a pod outside the mesh) has no sidecar to drain: Timelines
  // judges no drain for it and claims no figure, nor does Findings for its workload; the pod
  // page and Incidents still agree
  const drains = (f: PodFigure) => !['ambient', 'gateway', 'none'].includes(f.mode);
  for (const f of figures) {
    expect({ pod: f.pod, timelines: f.timelines, podPage: f.podPage }).toEqual({
      pod: f.pod,
      timelines: drains(f) ? f.incidents : null,
      podPage: f.incidents,
    });
  }
  const byWorkload = new Map<string, number>();
  for (const f of figures.filter(drains))
    byWorkload.set(f.workload, (byWorkload.get(f.workload) ?? 0) + f.incidents);
  type Groups = {
    groups?: {
      code: string;
      harm: string;
      objects: {
        subject: { kind: string; namespace?: string; name: string };
        evidence: Record<string, unknown>;
      }[];
    }[];
  };
  // Findings serves one report for 30 s (server/screens/findings FINDINGS_CACHE_MS): the one
  // read before Incidents recorded the failures may still be served
  const findingsOf = async () => {
    const drain = (await json<Groups>('/api/findings')).groups?.find((g) => g.code === 'MDX0105');
    const got: Record<string, unknown> = {};
    for (const w of byWorkload.keys()) {
      const o = drain?.objects.find(
        (x) =>
          workloadText({
            kind: x.subject.kind,
            namespace: x.subject.namespace ?? '',
            name: x.subject.name,
          }) === w,
      );
      got[w] = o?.evidence.failedRequests;
    }
    return { harm: byWorkload.size > 0 ? drain?.harm : 'none', figures: got };
  };
  await expect
    .poll(findingsOf, { timeout: 90_000, message: 'Findings gives the same drain figures' })
    .toEqual({
      harm: byWorkload.size > 0 ? 'observed' : 'none',
      figures: Object.fromEntries(byWorkload),
    });
  if (figures.length > 0) {
    const first = figures[0] as PodFigure;
    await page.goto(`${demo}${podHref(first.ref)}?context=${ctx}`);
    await expect(page.getByText(String(first.incidents)).first()).toBeVisible({ timeout: 30_000 });
    await snap(page, shot);
  }
  return figures.length;
}

/**
 * Incidents with Live on for a simulated minute: chart, cards and both tables on the same
 * requests, the snapshot's and those that arrived.
 */
async function liveMinute(page: Page, scenario: string): Promise<void> {
  // the dashboard watches the cluster first (its pod history sees the deletion), then the
  // cluster moves past its first deletion (a no-op when the specs before moved it there already)
  expect((await fetch(`${demo}/api/incidents?context=meshdx-sim-${scenario}`)).status).toBe(200);
  const sim = simUrlOf(scenario, DEMO_DATA.rolloutDemo);
  const now = async () =>
    Date.parse(
      ((await (await fetch(`${sim}/_sim/info`)).json()) as { clock: { now: string } }).clock.now,
    );
  const start = await now();
  const target = Date.parse('2026-11-01T12:01:10Z');
  if (start < target) await advance(scenario, target - start);
  // the view has found the clients failing on the gone pod (its pod watch caught up)
  await expect
    .poll(
      async () => {
        const res = await fetch(`${demo}/api/incidents?context=meshdx-sim-${scenario}`);
        return res.ok ? ((await res.json()) as { totals: { shown: number } }).totals.shown : 0;
      },
      { timeout: 60_000, message: `${scenario}: failing requests in the view before Live` },
    )
    .toBeGreaterThan(0);
  await page.goto(`${demo}/incidents?context=meshdx-sim-${scenario}`);
  const before = await checkIncidents(page);
  await page.getByTestId('live-switch').check();
  await expect(page.getByTestId('live-status')).toContainText('Live (live)');
  // a simulated minute: the phantom clients keep failing on the pods that went
  await advance(scenario, 60_000);
  const received = async () =>
    Number(
      /(\d+) failing requests attributed/.exec(
        (await page.getByTestId('live-status').textContent()) ?? '',
      )?.[1] ?? '0',
    );
  // the clock stands still now: wait until the last lines were attributed and sent
  let last = -1;
  for (let i = 0; i < 20; i++) {
    await page.waitForTimeout(1500);
    const n = await received();
    if (n === last) break;
    last = n;
  }
  expect(last, 'failing requests arrived while live').toBeGreaterThan(0);
  const failing = await checkIncidents(page);
  expect(failing).toBe(before + last);
  await expect(page.getByTestId('live-status')).not.toContainText('{');
  await snap(page, `invariants-${scenario}-live`);
}
