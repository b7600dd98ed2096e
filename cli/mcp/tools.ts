/**
 * The tools of `meshdx mcp`, built once over the dashboard's HTTP API (cli/mcp/dashboard.ts):
 * each asks the routes the pages read, answers a few fields of their view models with the deep
 * link into the dashboard, and passes a refusal through as the API gave it (a bad parameter is
 * the route's own 400 naming it). Every tool only reads: the dashboard's GET routes and its
 * sign-in are all it asks, so nothing it does can change the cluster.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { IncidentsViewSchema } from '../../lib/api/incidents';
import { PodListSchema } from '../../lib/api/inventory';
import { PodTimelineViewSchema } from '../../lib/api/timelines';
import { FleetViewSchema } from '../../lib/api/proxies';
import { ScopingViewSchema } from '../../lib/api/scoping-view';
import { FindingsReportSchema } from '../../lib/api/findings';
import { apiError, type ApiError } from '../../lib/api/errors';
import { checkParam } from '../../lib/api/param-kinds';
import { isRequestError } from '../../lib/api/request-error';
import { parseTimeParam, TIME_FORMS_HINT } from '../../lib/api/time-param';
import { badParameter } from '../../lib/api/request-error';
import { podKey, podPath } from '../../lib/refs/pod-ref';
import type { Dashboard } from './dashboard';
import {
  dashboardLink,
  findingsAnswer,
  ipHolderAnswer,
  podPageLink,
  podStartupAnswer,
  unscopedAnswer,
} from './answers';

/** A tool's answer, or the refusal to pass on. */
export type ToolOutcome = { ok: true; summary: string; data: { link: string } } | ToolRefusal;
export interface ToolRefusal {
  ok: false;
  status: number;
  error: ApiError;
}

/** A refusal of the tool itself (an argument no route takes), in the API's words and shape. */
export function refusalOf(e: unknown): ToolRefusal {
  if (isRequestError(e))
    return { ok: false, status: e.status, error: apiError(e.code, e.message, e.hint) };
  throw e;
}

/** GET a route and parse its view model; the route's refusal, or an answer of another shape. */
export async function readView<T>(
  dash: Dashboard,
  path: string,
  query: Record<string, string | undefined>,
  context: string | null,
  schema: z.ZodType<T>,
): Promise<{ ok: true; view: T } | ToolRefusal> {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') sp.set(k, v);
  const got = await dash.get(path, sp, context);
  if (!got.ok) return got;
  const parsed = schema.safeParse(got.body);
  if (parsed.success) return { ok: true, view: parsed.data };
  return {
    ok: false,
    status: 502,
    error: apiError(
      'DASHBOARD_ANSWER',
      `${path} answered a view this meshdx mcp does not read: ${parsed.error.issues[0]?.message ?? 'another shape'} at ${parsed.error.issues[0]?.path.join('.') ?? ''}`,
      'Run meshdx mcp from the same meshdx version as the dashboard.',
    ),
  };
}

/** A window of 5 minutes each side of `at` (RFC 3339, epoch ms or now-15m), or the 400 naming it. */
export function windowAround(at: string, now: number): { from: string; to: string } {
  const t = parseTimeParam(at, now);
  if (!t.ok) throw badParameter('at', t.problem, TIME_FORMS_HINT);
  return {
    from: new Date(t.ms - AROUND_MS).toISOString(),
    to: new Date(t.ms + AROUND_MS).toISOString(),
  };
}
/** Minutes each side of `at` (a window, not the ledger's gap tolerance). */
const AROUND_MINUTES = 5;
const AROUND_MS = AROUND_MINUTES * 60_000;

/** Who held `ip` around `at` (or in from..to) and who was still sending to it. */
export async function whoHeldIp(
  dash: Dashboard,
  a: {
    ip: string;
    at?: string;
    from?: string;
    to?: string;
    namespace?: string;
    service?: string;
    context?: string;
  },
): Promise<ToolOutcome> {
  const ctx = a.context ?? null;
  let win: { from?: string; to?: string } = { from: a.from, to: a.to };
  if (a.at !== undefined && a.from === undefined && a.to === undefined) {
    try {
      win = windowAround(a.at, Date.now());
    } catch (e) {
      return refusalOf(e);
    }
  }
  const state = { ip: a.ip, namespace: a.namespace, service: a.service, ...win };
  const [view, now] = await Promise.all([
    readView(dash, '/api/incidents', state, ctx, IncidentsViewSchema),
    readView(dash, '/api/pods', { ip: a.ip }, ctx, PodListSchema),
  ]);
  if (!view.ok) return view;
  const link = dashboardLink(dash.base, '/incidents', state, ctx);
  const data = ipHolderAnswer(
    a.ip,
    view.view,
    now.ok ? now.view : { error: now.error.error },
    link,
  );
  const holders = data.holders.map((h) => `${h.pod ?? 'unknown'} (${h.state})`);
  return {
    ok: true,
    summary:
      holders.length > 0
        ? `${a.ip} was held by ${holders.join(', ')} when ${data.requests.shown} failing requests were sent to it; ${data.stillSending.length} client proxies kept sending after its deletion began.`
        : `No failing request to ${a.ip} in the window: Incidents attributes none.`,
    data,
  };
}

/** Why a pod failed at start: its timeline. */
export async function podStartup(
  dash: Dashboard,
  a: { namespace: string; name: string; uid?: string; context?: string },
): Promise<ToolOutcome> {
  const ctx = a.context ?? null;
  const read = await readView(
    dash,
    `/api/timelines/${podPath({ namespace: a.namespace, name: a.name })}`,
    { uid: a.uid },
    ctx,
    PodTimelineViewSchema,
  );
  if (!read.ok) return read;
  const v = read.view;
  const pod = podKey(v.namespace, v.name);
  const data = podStartupAnswer(v, {
    timeline: dashboardLink(
      dash.base,
      '/timelines',
      { namespace: v.namespace, pod, uid: a.uid ?? null },
      ctx,
    ),
    pod: podPageLink(dash.base, { namespace: v.namespace, name: v.name, uid: a.uid }, ctx),
  });
  const startup = data.verdicts.filter((x) => x.phase === 'startup').map((x) => x.verdict);
  return {
    ok: true,
    summary: `${pod}: ${startup.length > 0 ? `startup verdicts ${startup.join(', ')}` : 'no startup verdict'}; ${v.restarts} restarts; gap ${v.gapMs === null ? 'unknown' : `${v.gapMs} ms`}.`,
    data,
  };
}

/** Which proxies carry the whole mesh and the Sidecars that would scope them. */
export async function unscopedProxies(
  dash: Dashboard,
  a: { namespace?: string; context?: string },
): Promise<ToolOutcome> {
  const ctx = a.context ?? null;
  const [fleet, scoping] = await Promise.all([
    readView(dash, '/api/proxies/fleet', { namespace: a.namespace }, ctx, FleetViewSchema),
    readView(dash, '/api/scoping', {}, ctx, ScopingViewSchema),
  ]);
  if (!fleet.ok) return fleet;
  if (!scoping.ok) return scoping;
  const data = unscopedAnswer(fleet.view, scoping.view, a.namespace, {
    proxies: dashboardLink(dash.base, '/proxies', { namespace: a.namespace }, ctx),
    scoping: dashboardLink(dash.base, '/scoping', { namespace: a.namespace }, ctx),
  });
  return {
    ok: true,
    summary: `${a.namespace ? `${data.namespaces.reduce((n, x) => n + x.unscopedProxies, 0)} proxies in ${a.namespace}, ` : ''}${data.totals.unscopedProxies} of ${data.totals.proxies} in the mesh carry the whole mesh (no Sidecar selects them)${data.totals.sidecarUnknown > 0 ? `, ${data.totals.sidecarUnknown} unknown` : ''}; Scoping proposes ${data.sidecars.length} Sidecars${a.namespace ? ` for ${a.namespace}` : ''}.`,
    data,
  };
}

/** What Findings says, for a namespace, a code, a severity. */
export async function findingsFor(
  dash: Dashboard,
  a: { namespace?: string; code?: string; severity?: string; context?: string },
): Promise<ToolOutcome> {
  const ctx = a.context ?? null;
  let state: { namespace?: string; code?: string; severity?: 'error' | 'warning' | 'info' };
  try {
    state = {
      namespace:
        a.namespace === undefined ? undefined : checkParam('namespace', 'namespace', a.namespace),
      code: a.code === undefined ? undefined : checkParam('token', 'code', a.code),
      severity:
        a.severity === undefined ? undefined : checkParam('severity', 'severity', a.severity),
    };
  } catch (e) {
    return refusalOf(e);
  }
  // a namespace the cluster does not have is the API's 404 naming it, not "no findings"
  const [report, exists] = await Promise.all([
    readView(dash, '/api/findings', {}, ctx, FindingsReportSchema),
    state.namespace === undefined
      ? Promise.resolve(null)
      : readView(dash, '/api/pods', { namespace: state.namespace, limit: '1' }, ctx, PodListSchema),
  ]);
  if (exists !== null && !exists.ok) return exists;
  if (!report.ok) return report;
  const data = findingsAnswer(
    report.view,
    state,
    dashboardLink(dash.base, '/findings', state, ctx),
  );
  return {
    ok: true,
    summary: `${data.findings.length} findings${state.namespace ? ` in ${state.namespace}` : ''}, in ${data.groups.length} groups${data.groups[0] ? `; worst: ${data.groups[0].code} ${data.groups[0].title} (${data.groups[0].count})` : ''}.`,
    data,
  };
}

/** The MCP answer of an outcome: the summary, the link and the data, or the API's refusal. */
export function toolResult(o: ToolOutcome): CallToolResult {
  if (!o.ok)
    return {
      isError: true,
      content: [{ type: 'text', text: JSON.stringify(o.error) }],
      structuredContent: { status: o.status, ...o.error },
    };
  return {
    content: [
      {
        type: 'text',
        text: `${o.summary}\nOpen in meshdx: ${o.data.link}\n\n${JSON.stringify(o.data)}`,
      },
    ],
    structuredContent: o.data,
  };
}
