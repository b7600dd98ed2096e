/**
 * GET /api/metrics: meshdx's own health and what its views found, in Prometheus' text format
 * (prom-client, one registry per scrape: nothing is kept between scrapes). Each figure is the
 * one its view shows, read from the view's own use case: findings from Findings' report, pods by
 * verdict from Timelines' fleet, unscoped proxies from Proxies' fleet, failing requests by the
 * holder's state from Incidents over the last 15 minutes. A view that failed exports no figure
 * (unknown, never 0) and says so in `meshdx_view_up`; one answered in part says so in
 * `meshdx_view_complete`. The namespace label is bounded (lib/metrics/bounded-labels.ts).
 */
import { Counter, Gauge, Registry } from 'prom-client';
import type { FindingsReport } from '../../../lib/api/findings';
import type { FleetView } from '../../../lib/api/proxies';
import type { IncidentsView } from '../../../lib/api/incidents';
import type { TimelineFleet } from '../../../lib/api/timelines';
import { parseViewState } from '../../../lib/api/viewstate';
import { findingNamespace } from '../../../lib/findings/links';
import {
  boundLabel,
  MAX_NAMESPACE_LABELS,
  NO_NAMESPACE_LABEL,
} from '../../../lib/metrics/bounded-labels';
import type { RequestScope } from '../../auth/identity';
import { toErrorResult } from '../../http';
import { runningRuntimes } from '../../runtime/registry';
import { getFindings } from '../findings/findings';
import { getFleet } from '../proxies/fleet';
import { getIncidents } from '../incidents/incidents';
import { getTimelineFleet } from '../timelines/timelines';
import { windowOf } from '../window';

/** The window of the Incidents figures: what `/incidents?from=now-15m&to=now` shows. */
export const METRICS_INCIDENTS_WINDOW = 'now-15m';

type Outcome<T> = { ok: true; value: T } | { ok: false; code: string };

async function settle<T>(run: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await run() };
  } catch (e) {
    return { ok: false, code: toErrorResult(e).body.error.code };
  }
}

type Labels = Record<string, string>;

function gauge(reg: Registry, name: string, help: string, labelNames: string[] = []) {
  return new Gauge({ name, help, labelNames, registers: [reg] });
}

function counter(reg: Registry, name: string, help: string, labelNames: string[] = []) {
  return new Counter({ name, help, labelNames, registers: [reg] });
}

/** meshdx's own state: the process, each runtime's watches, its requests to the API server. */
function healthMetrics(reg: Registry): void {
  gauge(reg, 'meshdx_up', 'meshdx answers (always 1 when scraped).').set(1);
  const watch = gauge(
    reg,
    'meshdx_watch_state',
    'Each runtime watch, 1 for the state it is in (listing, watching, retrying, stopped, starting).',
    ['context', 'resource', 'state'],
  );
  const listed = gauge(reg, 'meshdx_watch_listed', 'Whether the watch has its first list in.', [
    'context',
    'resource',
  ]);
  const events = counter(reg, 'meshdx_watch_events_total', 'Watch events delivered.', [
    'context',
    'resource',
  ]);
  const consumerErrors = counter(
    reg,
    'meshdx_watch_consumer_errors_total',
    'Watch events a consumer failed on (a meshdx bug, counted).',
    ['context', 'resource'],
  );
  const requests = counter(
    reg,
    'meshdx_kube_api_requests_total',
    "meshdx's own requests to the API server, by kind (its request budget).",
    ['context', 'kind'],
  );
  const tooMany = counter(
    reg,
    'meshdx_kube_api_too_many_requests_total',
    'Answers 429 from the API server.',
    ['context'],
  );
  const retries = counter(reg, 'meshdx_kube_api_retries_total', 'Requests retried.', ['context']);
  const runtimes = gauge(reg, 'meshdx_runtimes', 'Cluster runtimes running (one per context).');
  const all = runningRuntimes();
  runtimes.set(all.length);
  for (const rt of all) {
    const context = rt.context;
    for (const [resource, feed] of [
      ['pods', rt.pods],
      ['events', rt.events],
    ] as const) {
      const s = feed.currentStatus;
      watch.set({ context, resource, state: s.state }, 1);
      listed.set({ context, resource }, s.listed ? 1 : 0);
      events.inc({ context, resource }, s.events);
      consumerErrors.inc({ context, resource }, s.consumerErrors);
    }
    const b = rt.transport.budgetStats();
    for (const [kind, n] of Object.entries(b.requests)) requests.inc({ context, kind }, n);
    tooMany.inc({ context }, b.tooManyRequests);
    retries.inc({ context }, b.retries);
  }
}

function setAll(g: Gauge, counts: readonly { labels: Labels; value: number }[]): void {
  for (const c of counts) g.set(c.labels, c.value);
}

/** Findings by code, severity and namespace: the report's findings, as Findings lists them. */
function findingsMetrics(reg: Registry, report: FindingsReport): void {
  const by = new Map<string, { labels: Labels; value: number }>();
  for (const f of report.findings) {
    const labels = {
      code: f.code,
      severity: f.severity,
      namespace: findingNamespace(f.subject) ?? NO_NAMESPACE_LABEL,
    };
    const k = JSON.stringify(labels);
    const e = by.get(k) ?? { labels, value: 0 };
    e.value++;
    by.set(k, e);
  }
  setAll(
    gauge(reg, 'meshdx_findings', 'Findings now, as the Findings view lists them.', [
      'code',
      'severity',
      'namespace',
    ]),
    boundLabel([...by.values()], 'namespace', MAX_NAMESPACE_LABELS),
  );
}

/** Pods by verdict: the Timelines stat cards (the fleet's byVerdict). */
function timelineMetrics(reg: Registry, fleet: TimelineFleet): void {
  const g = gauge(reg, 'meshdx_timeline_pods', 'Meshed pods by Timelines verdict (race, ...).', [
    'verdict',
  ]);
  for (const [verdict, n] of Object.entries(fleet.byVerdict)) g.set({ verdict }, n);
}

/** Proxies no Sidecar selects: the Proxies fleet's totals and namespace summary. */
function proxyMetrics(reg: Registry, fleet: FleetView): void {
  gauge(reg, 'meshdx_proxies', 'Proxies in the fleet.').set(fleet.totals.proxies);
  gauge(
    reg,
    'meshdx_proxies_sidecar_unknown',
    'Proxies whose Sidecar was not read (unscoped is then a floor).',
  ).set(fleet.totals.sidecarUnknown);
  setAll(
    gauge(
      reg,
      'meshdx_proxies_unscoped',
      'Proxies no Sidecar selects (they carry the whole mesh), by namespace.',
      ['namespace'],
    ),
    boundLabel(
      fleet.namespaces.map((n) => ({
        labels: { namespace: n.namespace },
        value: n.unscopedProxies,
      })),
      'namespace',
      MAX_NAMESPACE_LABELS,
    ),
  );
}

/** Failing requests of the last 15 minutes by the state of the pod that held the IP. */
function incidentMetrics(reg: Registry, view: IncidentsView): void {
  const g = gauge(
    reg,
    'meshdx_incident_failing_requests',
    `Failing requests Incidents shows for from=${METRICS_INCIDENTS_WINDOW} to=now, by the state of the pod that held the upstream IP when each was sent (terminating, terminated: to gone pods).`,
    ['state'],
  );
  for (const [state, n] of Object.entries(view.totals.byState)) g.set({ state }, n);
}

/** The whole scrape of `scope`'s context: its text and content type. */
export async function getMetrics(
  scope: RequestScope,
): Promise<{ text: string; contentType: string }> {
  const reg = new Registry();
  const win = windowOf(scope, new URLSearchParams({ from: METRICS_INCIDENTS_WINDOW, to: 'now' }));
  const [findings, timelines, proxies, incidents] = await Promise.all([
    settle(() => getFindings(scope)),
    settle(() => getTimelineFleet(scope)),
    settle(() => getFleet(scope)),
    settle(() => getIncidents(scope, parseViewState('incidents', win.params))),
  ]);
  healthMetrics(reg);
  const up = gauge(
    reg,
    'meshdx_view_up',
    'Whether the view answered this scrape (0: its figures are absent, with the error code).',
    ['view', 'code'],
  );
  const complete = gauge(
    reg,
    'meshdx_view_complete',
    'Whether the view was read whole (0: a part was late, its figures are partial).',
    ['view'],
  );
  const views: [string, Outcome<{ late?: unknown[] }>, (r: Registry) => void][] = [
    ['findings', findings, (r) => findings.ok && findingsMetrics(r, findings.value)],
    ['timelines', timelines, (r) => timelines.ok && timelineMetrics(r, timelines.value)],
    ['proxies', proxies, (r) => proxies.ok && proxyMetrics(r, proxies.value)],
    ['incidents', incidents, (r) => incidents.ok && incidentMetrics(r, incidents.value)],
  ];
  for (const [view, o, write] of views) {
    up.set({ view, code: o.ok ? '' : o.code }, o.ok ? 1 : 0);
    if (!o.ok) continue;
    complete.set({ view }, (o.value.late?.length ?? 0) > 0 ? 0 : 1);
    write(reg);
  }
  return { text: await reg.metrics(), contentType: reg.contentType };
}
