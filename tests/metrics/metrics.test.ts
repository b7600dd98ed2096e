/**
 * GET /api/metrics on the phantom-503 simulator, through meshdx's route handler: Prometheus' own
 * `promtool check metrics` accepts the text, each figure is the one its view's API answers for
 * the same moment, and a real Prometheus scrapes it.
 */
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as metricsGet } from '../../app/api/metrics/route';
import { FindingsReportSchema } from '../../lib/api/findings';
import { FleetViewSchema } from '../../lib/api/proxies';
import { IncidentsViewSchema } from '../../lib/api/incidents';
import { TimelinePagedFleetSchema } from '../../lib/api/timelines';
import { findingNamespace } from '../../lib/findings/links';
import { runningRuntimes } from '../../server/runtime/registry';
import { runtimeOnSimulator, type SimRuntime } from '../../test-support/sim-runtime';
import { startRouteServer, type RouteServer } from '../../test-support/route-server';
import {
  PROMTOOL_BIN,
  requirePrometheus,
  startPrometheus,
  waitForQuery,
  type RunningPrometheus,
} from '../../test-support/prometheus';
import {
  CHILD_PROCESS_GUARD_MS,
  COMPLETENESS_ENV,
  GATHER_GUARD_MS,
} from '../../test-support/deadlines';

requirePrometheus();

const START = new Date('2026-11-01T12:00:00Z');
let on: SimRuntime;
let api: RouteServer;
let prom: RunningPrometheus | undefined;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function apiGet(p: string): Promise<unknown> {
  const res = await fetch(new URL(p.replace(/^\//, ''), api.url));
  expect(res.status, p).toBe(200);
  return res.json();
}

async function scrape(): Promise<{ type: string; text: string }> {
  const res = await metricsGet(new Request('http://meshdx.test/api/metrics'));
  expect(res.status).toBe(200);
  return { type: res.headers.get('content-type') ?? '', text: await res.text() };
}

/** The samples of one metric: labels and value. */
function samples(text: string, name: string): { labels: Record<string, string>; value: number }[] {
  const out: { labels: Record<string, string>; value: number }[] = [];
  for (const line of text.split('\n')) {
    const m = new RegExp(`^${name}(?:\\{(.*)\\})? (\\S+)$`).exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[1] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
      labels[l[1] ?? ''] = l[2] ?? '';
    out.push({ labels, value: Number(m[2]) });
  }
  return out;
}

function promtoolCheck(text: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      PROMTOOL_BIN,
      ['check', 'metrics'],
      { timeout: CHILD_PROCESS_GUARD_MS },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number(err.code ?? 1) : 0, out: stdout + stderr }),
    );
    child.stdin?.end(text);
  });
}

beforeAll(async () => {
  on = await runtimeOnSimulator({
    scenario: 'phantom-503',
    clock: { fixed: START },
    env: { MESHDX_CLOCK: 'objects', ...COMPLETENESS_ENV },
  });
  api = await startRouteServer();
  await apiGet('/api/findings');
  const [rt] = runningRuntimes();
  if (!rt) throw new Error('the route started no runtime');
  await rt.recorder.ready;
  // the story's payments rollout (20 s in) fails requests to the pods it deletes
  for (let t = 0; t < 45_000; t += 1000) {
    on.sim.clock.advance(1000);
    await sleep(10);
  }
  // every view read whole, so that the figures can be compared with their views
  const end = Date.now() + GATHER_GUARD_MS;
  while (FindingsReportSchema.parse(await apiGet('/api/findings')).late?.length) {
    if (Date.now() > end) throw new Error('the findings report never completed');
    await sleep(200);
  }
}, GATHER_GUARD_MS);

afterAll(async () => {
  await prom?.stop();
  await api?.close();
  await on?.close();
});

describe('/api/metrics', () => {
  it(
    'is Prometheus text that promtool accepts, every view up and whole',
    async () => {
      const { type, text } = await scrape();
      expect(type).toMatch(/^text\/plain; version=0\.0\.4/);
      const check = await promtoolCheck(text);
      expect(check.code, check.out).toBe(0);
      expect(samples(text, 'meshdx_up')).toEqual([{ labels: {}, value: 1 }]);
      for (const view of ['findings', 'timelines', 'proxies', 'incidents'])
        expect(samples(text, 'meshdx_view_up').find((s) => s.labels.view === view)?.value).toBe(1);
      expect(
        samples(text, 'meshdx_watch_state').find(
          (s) => s.labels.resource === 'pods' && s.labels.state === 'watching',
        )?.value,
      ).toBe(1);
      expect(
        samples(text, 'meshdx_kube_api_requests_total').find((s) => s.labels.kind === 'list')
          ?.value,
      ).toBeGreaterThan(0);
    },
    GATHER_GUARD_MS,
  );

  it(
    "each figure is its view's: findings, pods by verdict, unscoped proxies, failing requests to gone pods",
    async () => {
      const { text } = await scrape();
      const report = FindingsReportSchema.parse(await apiGet('/api/findings'));
      const findings = samples(text, 'meshdx_findings');
      expect(findings.reduce((s, x) => s + x.value, 0)).toBe(report.findings.length);
      for (const f of findings) {
        const ns = f.labels.namespace === '_none' ? undefined : f.labels.namespace;
        expect(f.value, JSON.stringify(f.labels)).toBe(
          report.findings.filter(
            (x) =>
              x.code === f.labels.code &&
              x.severity === f.labels.severity &&
              findingNamespace(x.subject) === ns,
          ).length,
        );
      }
      const fleet = TimelinePagedFleetSchema.parse(await apiGet('/api/timelines'));
      const verdicts = Object.fromEntries(
        samples(text, 'meshdx_timeline_pods').map((s) => [s.labels.verdict, s.value]),
      );
      expect(verdicts).toEqual(fleet.byVerdict);
      const proxies = FleetViewSchema.parse(await apiGet('/api/proxies/fleet'));
      const unscoped = Object.fromEntries(
        samples(text, 'meshdx_proxies_unscoped').map((s) => [s.labels.namespace, s.value]),
      );
      expect(unscoped).toEqual(
        Object.fromEntries(proxies.namespaces.map((n) => [n.namespace, n.unscopedProxies])),
      );
      expect(unscoped.shop).toBeGreaterThan(0);
      const incidents = IncidentsViewSchema.parse(
        await apiGet('/api/incidents?from=now-15m&to=now'),
      );
      const failing = Object.fromEntries(
        samples(text, 'meshdx_incident_failing_requests').map((s) => [s.labels.state, s.value]),
      );
      expect(failing).toEqual(incidents.totals.byState);
      // the phantom 503s: requests sent to payments pods already being deleted
      expect((failing.terminating ?? 0) + (failing.terminated ?? 0)).toBeGreaterThan(0);
    },
    GATHER_GUARD_MS,
  );

  it(
    'a real Prometheus scrapes it',
    async () => {
      prom = await startPrometheus({
        hostPort: new URL(api.url).host,
        metricsPath: '/api/metrics',
        scrapeSeconds: 1,
        job: 'meshdx',
      });
      const p = prom;
      await waitForQuery(p, 'up{job="meshdx"} == 1', (r) => r.length === 1);
      await waitForQuery(p, 'sum(meshdx_findings{job="meshdx"}) > 0', (r) => r.length === 1);
      await waitForQuery(
        p,
        'meshdx_proxies_unscoped{job="meshdx",namespace="shop"} > 0',
        (r) => r.length === 1,
      );
    },
    GATHER_GUARD_MS,
  );
});
