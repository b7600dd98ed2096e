/**
 * `open_link`: a dashboard URL (pasted from a ticket or a chat) read as the view it opens. Its
 * path picks the view, its query is the view's own URL state, handed to the view's route as the
 * page hands it: a parameter the view does not take is the route's 400 naming it. Only the path
 * and query are read; the view is asked of the dashboard this server was given.
 */
import { IncidentsViewSchema } from '../../lib/api/incidents';
import { PodDetailSchema } from '../../lib/api/inventory';
import { PodTimelineViewSchema, TimelinePagedFleetSchema } from '../../lib/api/timelines';
import { apiError } from '../../lib/api/errors';
import { badParameter } from '../../lib/api/request-error';
import { CONTEXT_PARAM, urlContext } from '../../lib/api/context';
import { parseViewState } from '../../lib/api/viewstate';
import { SNAPSHOT_ID } from '../../lib/api/snapshots';
import { timelineQueryOfView } from '../../lib/timeline/fleet-page';
import { parsePodKey, podKey, podPath } from '../../lib/refs/pod-ref';
import { RefError } from '../../lib/refs/ref-error';
import type { Dashboard } from './dashboard';
import { dashboardLink, incidentsAnswer, podPageAnswer, podPageLink } from './answers';
import {
  findingsFor,
  podStartup,
  readView,
  refusalOf,
  unscopedProxies,
  type ToolOutcome,
} from './tools';

const VIEWS =
  '/incidents?..., /timelines?pod=NS/NAME, /timelines?..., /pods/NS/NAME, /findings?..., /proxies?..., /scoping?..., /snapshots/ID';

/** The query of a link without its context, as a plain record (first value of each). */
function queryOf(u: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of u.searchParams) if (k !== CONTEXT_PARAM && !(k in out)) out[k] = v;
  return out;
}

/** The link's path below the dashboard's base path (a dashboard served under /meshdx/). */
function viewPath(u: URL, base: string): string {
  const prefix = new URL(base).pathname.replace(/\/$/, '');
  const p = u.pathname;
  return prefix !== '' && (p === prefix || p.startsWith(`${prefix}/`))
    ? p.slice(prefix.length) || '/'
    : p;
}

export async function openLink(dash: Dashboard, raw: string): Promise<ToolOutcome> {
  let u: URL;
  try {
    u = new URL(raw.trim(), dash.base);
  } catch {
    return refusalOf(badParameter('url', `${JSON.stringify(raw.slice(0, 80))} is not a URL`));
  }
  let context: string | null;
  try {
    context = urlContext(u.searchParams);
  } catch (e) {
    return refusalOf(e);
  }
  const q = queryOf(u);
  const path = viewPath(u, dash.base);
  const ctx = context ?? undefined;
  if (path === '/incidents') {
    const read = await readView(dash, '/api/incidents', q, context, IncidentsViewSchema);
    if (!read.ok) return read;
    const data = incidentsAnswer(read.view, dashboardLink(dash.base, '/incidents', q, context));
    return {
      ok: true,
      summary: `Incidents: ${data.requests.shown} failing requests in the window, to ${data.pods.length} pods; ${data.stillSending.length} client proxies kept sending to a pod being deleted.`,
      data,
    };
  }
  if (path === '/timelines' && q.pod !== undefined) {
    let pod;
    try {
      pod = parsePodKey(q.pod);
    } catch (e) {
      if (e instanceof RefError) return refusalOf(badParameter('pod', e.message));
      throw e;
    }
    return podStartup(dash, { ...pod, uid: q.uid, context: ctx });
  }
  if (path === '/timelines') {
    const state = parseViewState('timelines', q);
    const query = timelineQueryOfView(state);
    const read = await readView(
      dash,
      '/api/timelines',
      Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
      context,
      TimelinePagedFleetSchema,
    );
    if (!read.ok) return read;
    const v = read.view;
    const data = {
      link: dashboardLink(dash.base, '/timelines', q, context),
      pods: v.page.counts.pods,
      byVerdict: v.page.counts.byVerdict,
      byMode: v.page.counts.byMode,
      fixes: v.fixes.map((f) => ({
        workload: `${f.kind} ${f.name}`,
        namespace: f.namespace,
        verdict: f.verdict,
        code: f.code,
        pods: f.pods,
        example: f.example,
      })),
      groups: v.page.groups.map((g) => ({ code: g.code, title: g.title, count: g.count })),
      late: v.late,
    };
    return {
      ok: true,
      summary: `Timelines: ${data.pods} pods; by verdict ${JSON.stringify(data.byVerdict)}.`,
      data,
    };
  }
  const podPage = /^\/pods\/([^/]+)\/([^/]+)$/.exec(path);
  if (podPage) {
    const namespace = decodeURIComponent(podPage[1] ?? '');
    const name = decodeURIComponent(podPage[2] ?? '');
    const read = await readView(
      dash,
      `/api/pods/${podPath({ namespace, name })}`,
      q,
      context,
      PodDetailSchema,
    );
    if (!read.ok) return read;
    const data = podPageAnswer(
      read.view,
      podPageLink(dash.base, { namespace, name, uid: q.uid }, context),
    );
    return {
      ok: true,
      summary: `${data.pod}: ${data.gone ? 'gone' : data.phase}${data.deletion ? `, deleted ${data.deletion.at}` : ''}.`,
      data,
    };
  }
  if (path === '/findings')
    return findingsFor(dash, {
      namespace: q.namespace,
      code: q.code,
      severity: q.severity,
      context: ctx,
    });
  if (path === '/proxies' || path === '/scoping')
    return unscopedProxies(dash, { namespace: q.namespace, context: ctx });
  const snap = /^\/snapshots\/([^/]+)$/.exec(path);
  if (snap) {
    const id = snap[1] ?? '';
    if (!SNAPSHOT_ID.test(id))
      return refusalOf(badParameter('id', `${JSON.stringify(id)} is not a snapshot id`));
    const got = await dash.get(`/api/snapshots/${id}`, new URLSearchParams(), context);
    if (!got.ok) return got;
    const link = dashboardLink(dash.base, `/snapshots/${id}`, {}, context);
    const incidents = IncidentsViewSchema.safeParse(got.body);
    if (incidents.success) {
      const data = incidentsAnswer(incidents.data, link);
      return {
        ok: true,
        summary: `A frozen Incidents view: ${data.requests.shown} failing requests, to ${data.pods.length} pods.`,
        data,
      };
    }
    const pod = PodTimelineViewSchema.safeParse(got.body);
    const fleet = TimelinePagedFleetSchema.safeParse(got.body);
    return {
      ok: true,
      summary: pod.success
        ? `A frozen timeline of ${podKey(pod.data.namespace, pod.data.name)}: verdicts ${pod.data.verdicts.map((x) => x.verdict).join(', ') || 'none'}.`
        : fleet.success
          ? `A frozen Timelines view: ${fleet.data.page.counts.pods} pods; by verdict ${JSON.stringify(fleet.data.page.counts.byVerdict)}.`
          : 'A frozen view this meshdx mcp does not read: open the link.',
      data: { link },
    };
  }
  return {
    ok: false,
    status: 404,
    error: apiError(
      'UNKNOWN_VIEW',
      `${path} is not a view meshdx can read`,
      `Give a link to ${VIEWS}.`,
    ),
  };
}
