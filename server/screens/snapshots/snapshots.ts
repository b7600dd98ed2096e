/**
 * Snapshots: a view's JSON frozen into its cluster's history store (Share on Incidents and
 * Timelines), reopened at /snapshots/ID after the pods, their logs and the store's raw records
 * are gone. The view is computed here through the same use case and the same parameter checks
 * as its API route, and kept exactly as that route serves it (Response.json is JSON.stringify).
 */
import { PAGE_PARAMS, ROUTE_PARAMS } from '../../../lib/api/route-params';
import { RequestError, badParameter } from '../../../lib/api/request-error';
import {
  SNAPSHOT_ID,
  VIEW_PAGE,
  type FreezeRequest,
  type SnapshotInfo,
  type SnapshotList,
} from '../../../lib/api/snapshots';
import { parseViewState } from '../../../lib/api/viewstate';
import { withContext } from '../../../lib/api/context';
import { timelineQueryOfView } from '../../../lib/timeline/fleet-page';
import type { RequestScope } from '../../auth/identity';
import { requireNamespace } from '../../kube/namespaces';
import { runtimeFor } from '../../runtime/registry';
import { defineScreen, type ClusterRuntime } from '../../runtime/runtime';
import {
  SnapshotTooLarge,
  SqliteSnapshotStore,
  type Snapshot,
  type SnapshotMeta,
} from '../../store';
import { queryParams } from '../../../lib/api/param-kinds';
import { getIncidents } from '../incidents/incidents';
import {
  logAccess,
  logAccessScreen,
  proxyNamespace,
  unreadableNamespaces,
} from '../incidents/failure-access';
import { getTimelinePage } from '../timelines/timelines';
import { windowOf } from '../window';
import { ownPodList, viewDeadline } from '../deadline';
import { isKubeError } from '../../kube/errors';

/** Who may delete which snapshot (said by the list and in docs/operating.md). */
export const DELETE_RULE =
  'A snapshot made by a signed-in user can be deleted by that user only; one made while meshdx ran without identities (MESHDX_AUTH=none) by anyone who can open meshdx.';

/** The runtime's snapshot store (one per runtime: its retention counts live as long). */
const snapshotsScreen = defineScreen(
  'snapshots',
  (rt) =>
    new SqliteSnapshotStore(rt.store.db, {
      maxAgeDays: rt.settings.MESHDX_SNAPSHOT_MAX_DAYS,
      maxBytes: rt.settings.MESHDX_SNAPSHOT_MAX_MB * 1024 * 1024,
    }),
);

function snapshotsOf(rt: ClusterRuntime): SqliteSnapshotStore {
  return rt.screen(snapshotsScreen);
}

const userOf = (scope: RequestScope): string | null =>
  scope.identity.mode === 'none' ? null : scope.identity.user;

export function snapshotInfo(m: SnapshotMeta, context: string | null): SnapshotInfo {
  return {
    id: m.id,
    view: m.view,
    url: withContext(m.url, context),
    link: withContext(`/snapshots/${m.id}`, context),
    api: withContext(`/api/snapshots/${m.id}`, context),
    madeBy: m.madeBy,
    frozenAt: new Date(m.frozenAt).toISOString(),
    bytes: m.bytes,
  };
}

/** The view's JSON for `query`, as its API route would answer it now. */
async function viewJson(
  scope: RequestScope,
  req: FreezeRequest,
): Promise<{ body: string; query: string }> {
  const given = new URLSearchParams(req.query);
  given.delete('context');
  const { params } = windowOf(scope, given);
  if (req.view === 'incidents') {
    const values = queryParams(params, ROUTE_PARAMS['/api/incidents'].query);
    if (values.namespace !== undefined)
      await requireNamespace(runtimeFor(scope).transport, values.namespace);
    const state = parseViewState('incidents', params);
    const view = await getIncidents(scope, state);
    // the window it answered is written into the query, so the "live" link names it too
    const q = new URLSearchParams(params);
    if (view.window.from === null && view.chart.from) q.set('from', view.chart.from);
    if (view.window.to === null && view.chart.to) q.set('to', view.chart.to);
    return { body: JSON.stringify(view), query: q.toString() };
  }
  // a frozen Timelines link is the page's: its parameters by the page's kinds
  const values = queryParams(params, PAGE_PARAMS['/timelines'].query);
  if (values.namespace !== undefined)
    await requireNamespace(runtimeFor(scope).transport, values.namespace);
  const state = parseViewState('timelines', params);
  const page = await getTimelinePage(scope, timelineQueryOfView(state));
  return { body: JSON.stringify(page), query: params.toString() };
}

/** Freezes the view `req` names, as the scope's user, into the scope's cluster store. */
export async function freezeView(scope: RequestScope, req: FreezeRequest): Promise<SnapshotInfo> {
  const rt = runtimeFor(scope);
  const { body, query } = await viewJson(scope, req);
  const url = `${VIEW_PAGE[req.view]}${query ? `?${query}` : ''}`;
  try {
    const meta = snapshotsOf(rt).save({
      view: req.view,
      query: query ? `?${query}` : '',
      url,
      madeBy: userOf(scope),
      authMode: scope.identity.mode,
      frozenAt: Date.now(),
      body,
    });
    return snapshotInfo(meta, scope.context);
  } catch (e) {
    if (e instanceof SnapshotTooLarge)
      throw new RequestError(
        413,
        'SNAPSHOT_TOO_LARGE',
        e.message,
        'Narrow the view (a namespace, a shorter window) or raise MESHDX_SNAPSHOT_MAX_MB.',
      );
    throw e;
  }
}

/**
 * The snapshots of the scope's cluster the scope's user may open (readableSnapshot, the gate of
 * opening one), newest first: the list does not name another user's frozen views, their makers
 * and filters, to a user who could not open them.
 */
export async function listSnapshots(scope: RequestScope): Promise<SnapshotList> {
  const rt = runtimeFor(scope);
  const store = snapshotsOf(rt);
  const now = Date.now();
  const stats = store.stats(now);
  const all = store.list(now);
  // meshdx's own runtime (no per-user identity) opens every snapshot: no body is read for it
  const readable: SnapshotMeta[] = rt.ownsHistory ? all : [];
  if (!rt.ownsHistory)
    for (const m of all) {
      try {
        await mayOpen(rt, m, () => store.get(m.id)?.body ?? '');
        readable.push(m);
      } catch (e) {
        if (!(e instanceof RequestError && e.code === 'SNAPSHOT_NOT_READABLE')) throw e;
      }
    }
  return {
    snapshots: readable.map((m) => snapshotInfo(m, scope.context)),
    retention: {
      count: stats.count,
      bytes: stats.bytes,
      oldest: stats.oldest,
      maxAgeDays: stats.limits.maxAgeDays,
      maxBytes: stats.limits.maxBytes,
    },
    deleteRule: DELETE_RULE,
  };
}

function notFound(id: string): RequestError {
  return new RequestError(
    404,
    'SNAPSHOT_NOT_FOUND',
    `no snapshot ${JSON.stringify(id.slice(0, 40))} in this cluster's store`,
    'It was deleted, removed by retention (MESHDX_SNAPSHOT_MAX_DAYS, MESHDX_SNAPSHOT_MAX_MB), or belongs to another context: GET /api/snapshots lists what is kept.',
  );
}

/** A snapshot by id, or the 400 (not an id) or 404 naming it. */
export function getSnapshot(scope: RequestScope, id: string): Snapshot {
  if (!SNAPSHOT_ID.test(id))
    throw badParameter('id', `${JSON.stringify(id.slice(0, 40))} is not a snapshot id`);
  const s = snapshotsOf(runtimeFor(scope)).get(id);
  if (!s) throw notFound(id);
  return s;
}

/** The client proxies whose recorded requests a frozen Incidents view shows (rows and lags). */
function clientProxiesOf(body: string): string[] {
  let view: unknown;
  try {
    view = JSON.parse(body);
  } catch {
    return [];
  }
  const v = view as { requests?: { source?: unknown }[]; lag?: { rows?: { client?: unknown }[] } };
  const out: string[] = [];
  for (const r of Array.isArray(v.requests) ? v.requests : [])
    if (typeof r.source === 'string') out.push(r.source);
  for (const r of Array.isArray(v.lag?.rows) ? v.lag.rows : [])
    if (typeof r.client === 'string') out.push(r.client);
  return out;
}

/**
 * A snapshot to show to the scope's user: getSnapshot, and for a user's runtime the rule of the
 * live view it froze. An Incidents snapshot opens only when the user may read the proxy logs of
 * every client namespace it shows recorded requests of (failure-access.ts); a Timelines
 * snapshot (pods and their history, deleted ones too) only when the user's own credentials
 * list pods cluster-wide, as the store is shown (history-gate.ts). Otherwise the 403 says why.
 * A frozen view is shown whole or not at all: it is kept byte for byte.
 */
export async function readableSnapshot(scope: RequestScope, id: string): Promise<Snapshot> {
  const s = getSnapshot(scope, id);
  const rt = runtimeFor(scope);
  if (!rt.ownsHistory) await mayOpen(rt, s, () => s.body);
  return s;
}

const clientNamespacesScreen = defineScreen(
  'snapshot-client-namespaces',
  () => new Map<string, (string | null)[]>(),
);

/**
 * The client namespaces an Incidents snapshot shows, read from its body once per runtime (a
 * snapshot never changes): the list asks for every snapshot's.
 */
function clientNamespacesOf(rt: ClusterRuntime, id: string, body: () => string): (string | null)[] {
  const known = rt.screen(clientNamespacesScreen);
  let ns = known.get(id);
  if (!ns) {
    ns = [...new Set(clientProxiesOf(body()).map(proxyNamespace))];
    known.set(id, ns);
  }
  return ns;
}

/** The rule of readableSnapshot for a user's runtime: resolves, or throws the 403 saying why. */
async function mayOpen(
  rt: ClusterRuntime,
  s: Pick<SnapshotMeta, 'id' | 'view'>,
  body: () => string,
): Promise<void> {
  const { id } = s;
  if (s.view === 'timelines') {
    await podsListedByUser(rt, id);
    return;
  }
  const access = logAccess(rt.transport, rt.screen(logAccessScreen));
  const hidden = await unreadableNamespaces(clientNamespacesOf(rt, id, body), access);
  if (hidden.length > 0)
    throw new RequestError(
      403,
      'SNAPSHOT_NOT_READABLE',
      `snapshot ${id} shows failing requests recorded from ${hidden.map((ns) => (ns === '*' ? 'uploads or unnamed senders' : ns)).join(', ')}, whose proxy logs you may not read`,
      'Ask its maker for a snapshot of the namespaces you can read, or for access to those proxy logs (get pods/log).',
    );
}

/**
 * Waits (within the view deadline) for the user's own pod list; a 403 when the API server
 * refused it, naming its answer. A list that fails otherwise, or is still running at the
 * deadline, is the error a live view gives (not a refusal: it does not tell what the user may read).
 */
async function podsListedByUser(rt: ClusterRuntime, id: string): Promise<void> {
  try {
    await ownPodList(rt, viewDeadline(rt, `Snapshot ${id}`));
  } catch (e) {
    if (!isKubeError(e) || e.status !== 403) throw e;
    throw new RequestError(
      403,
      'SNAPSHOT_NOT_READABLE',
      `snapshot ${id} shows pods and their history, which meshdx shows to a user whose own credentials can list pods cluster-wide; the API server said: ${e.message}`,
      'Ask its maker to show you the live Timelines of the namespaces you can read, or for list and watch on pods cluster-wide.',
    );
  }
}

/** Deletes a snapshot under DELETE_RULE: 403 naming its maker when the scope's user is not. */
export function deleteSnapshot(scope: RequestScope, id: string): { deleted: string } {
  const s = getSnapshot(scope, id);
  const user = userOf(scope);
  if (s.madeBy !== null && s.madeBy !== user)
    throw new RequestError(
      403,
      'NOT_YOUR_SNAPSHOT',
      `snapshot ${id} was made by ${s.madeBy}; only they can delete it`,
      DELETE_RULE,
    );
  if (!snapshotsOf(runtimeFor(scope)).delete(id)) throw notFound(id);
  return { deleted: id };
}

/** What /api/health shows of a runtime's snapshots. */
export function snapshotHealth(rt: ClusterRuntime) {
  return snapshotsOf(rt).stats(Date.now());
}
