/**
 * The parameters of every route and page, each with its kind (param-kinds.ts): what a route may
 * read of its URL. A route reads its query and path only through these specs
 * (app/api/_lib/params.ts routeQuery and routePath, server/screens/page-params.ts for pages), so
 * a bad value is the 400 naming it and a namespace the cluster does not have the 404 naming it,
 * on every route alike; tests/edges/route-walk.test.ts holds every route file to it.
 *
 * `context` is not listed but on the sign-in page: every other route and page reads it through
 * the request's scope (lib/api/context.ts contextFrom).
 */
import type { ParamKind } from './param-kinds';
import { FLEET_QUERY_KINDS } from '../proxies/page';

export interface RouteParamSpec {
  /** The query parameters the route reads, by kind. */
  readonly query: Readonly<Record<string, ParamKind>>;
  /** The dynamic segments of its path ([namespace], [name], [id]), by kind. */
  readonly path?: Readonly<Record<string, ParamKind>>;
  /**
   * Whether a namespace in the path must exist now (a live proxy or ztunnel); a pod's history
   * and timeline are kept after its namespace is deleted, so theirs need not. A namespace in the
   * query must always exist.
   */
  readonly liveNamespace?: boolean;
}

const POD_PATH = { namespace: 'namespace', name: 'pod' } as const;
const WINDOW = { from: 'time', to: 'time' } as const;
const INCIDENT_FILTERS = {
  namespace: 'namespace',
  service: 'text',
  ip: 'ip',
  client: 'client',
  ...WINDOW,
} as const;

/** Every app/api route, by its path under app/ (dynamic segments as Next names them). */
export const ROUTE_PARAMS = {
  '/api/ambient': { query: {} },
  '/api/cluster': { query: {} },
  '/api/contexts': { query: {} },
  '/api/findings': { query: {} },
  // after: the revision the page knows; the answer is held until the revision is past it
  '/api/findings/changes': { query: { after: 'count' } },
  '/api/health': { query: {} },
  '/api/incidents': { query: INCIDENT_FILTERS },
  '/api/incidents/live': { query: { ...INCIDENT_FILTERS, since: 'time' } },
  '/api/incidents/upload': {
    query: { namespace: 'namespace', service: 'text', ip: 'ip', format: 'format', ...WINDOW },
  },
  '/api/inventory': { query: { namespace: 'namespace' } },
  '/api/metrics': { query: {} },
  '/api/pods': {
    query: { namespace: 'namespace', ip: 'ip', meshed: 'flag', q: 'text', limit: 'limit' },
  },
  // uid: that pod of the name (an earlier one, gone), not whichever holds the name now
  '/api/pods/[namespace]/[name]': { query: { uid: 'uid' }, path: POD_PATH },
  '/api/proxies/[namespace]/[name]': { query: {}, path: POD_PATH, liveNamespace: true },
  '/api/proxies/[namespace]/[name]/config_dump': {
    query: {},
    path: POD_PATH,
    liveNamespace: true,
  },
  '/api/proxies/fleet': {
    query: {
      refresh: 'flag',
      stream: 'flag',
      // the fleet table's own parameters, as its parser declares them
      ...FLEET_QUERY_KINDS,
    },
  },
  '/api/scoping': { query: { refresh: 'flag' } },
  '/api/scoping/bloat': { query: { namespace: 'namespace', workload: 'workload', ...WINDOW } },
  '/api/session': { query: {} },
  '/api/session/logout': { query: {} },
  '/api/snapshots': { query: {} },
  '/api/snapshots/[id]': { query: {}, path: { id: 'snapshot' } },
  '/api/timelines': {
    query: {
      namespace: 'namespace',
      workload: 'workload',
      verdict: 'verdict',
      q: 'text',
      sort: 'token',
      dir: 'dir',
      offset: 'count',
      limit: 'limit',
      ...WINDOW,
    },
  },
  '/api/timelines/[namespace]/[name]': { query: { uid: 'uid' }, path: POD_PATH },
  '/api/ztunnels/[namespace]/[name]': { query: {}, path: POD_PATH, liveNamespace: true },
} as const satisfies Record<string, RouteParamSpec>;

export type ApiRoute = keyof typeof ROUTE_PARAMS;

/** Every page, by its path under app/ (route groups left out), with what its URL may carry. */
export const PAGE_PARAMS = {
  '/': { query: { namespace: 'namespace' } },
  // the sign-in has no scope: the context it passes on to the session is checked here
  '/login': { query: { reason: 'token', context: 'context' } },
  '/findings': { query: { namespace: 'namespace', code: 'token', severity: 'severity' } },
  '/incidents': { query: INCIDENT_FILTERS },
  '/pods/[namespace]/[name]': { query: { uid: 'uid' }, path: POD_PATH },
  '/proxies': {
    query: {
      namespace: 'namespace',
      workload: 'workload',
      q: 'text',
      sort: 'token',
      dir: 'dir',
      proxy: 'ref',
      ztunnel: 'ref',
      page: 'page',
    },
  },
  '/scoping': { query: { namespace: 'namespace', workload: 'workload' } },
  '/snapshots': { query: {} },
  '/snapshots/[id]': { query: {}, path: { id: 'snapshot' } },
  '/timelines': {
    query: {
      namespace: 'namespace',
      workload: 'workload',
      verdict: 'verdict',
      q: 'text',
      sort: 'token',
      dir: 'dir',
      pod: 'ref',
      uid: 'uid',
      page: 'page',
      ...WINDOW,
    },
  },
} as const satisfies Record<string, RouteParamSpec>;

export type PageRoute = keyof typeof PAGE_PARAMS;
