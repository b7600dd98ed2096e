import type { ProxyFleetRow, FleetView } from '../api/proxies';
import { compareFleetRows } from './fleet';
import { distinctValues, filterFleetRows } from './filter';
import { objectKey } from '../refs/object-ref';
import { queryParams } from '../api/param-kinds';
import { badParameter } from '../api/request-error';

/** What a screen asks of the fleet: filters, sort and one page of rows. */
export interface FleetQuery {
  namespace?: string;
  workload?: string;
  q?: string;
  /** A column key of the fleet table, or 'rank' (the default ranking). */
  sort?: string;
  dir?: 'asc' | 'desc';
  offset?: number;
  limit?: number;
}

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

type SortValue = string | number | null;

/** Sort values by column key; null (no number) always sorts last, whatever the direction. */
const SORT_VALUES: Record<string, (r: ProxyFleetRow) => SortValue> = {
  proxy: (r) => r.key,
  workload: (r) => r.workload,
  placement: (r) => r.placement,
  clusters: (r) => (r.status === 'ok' ? r.activeClusters : null),
  service: (r) => (r.status === 'ok' ? r.serviceClustersEstimate : null),
  listeners: (r) => (r.status === 'ok' ? r.listeners : null),
  memory: (r) => (r.status === 'ok' ? r.memoryBytes : null),
  istio: (r) => r.istioVersion,
  sidecar: (r) => (r.sidecar ? objectKey(r.sidecar.namespace, r.sidecar.name) : ''),
  sync: (r) => r.sync?.state ?? null,
  status: (r) => r.status,
  source: (r) => r.source,
};

export const FLEET_SORT_KEYS = ['rank', ...Object.keys(SORT_VALUES)] as const;

function compareValues(x: SortValue, y: SortValue, dir: 'asc' | 'desc'): number {
  if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
  const r =
    typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
  return dir === 'asc' ? r : -r;
}

/** Rows filtered and sorted as the screen asked (ties keep the default ranking). */
export function selectFleetRows(rows: readonly ProxyFleetRow[], q: FleetQuery): ProxyFleetRow[] {
  const matched = filterFleetRows(rows, q);
  const pick = q.sort ? SORT_VALUES[q.sort] : undefined;
  const dir = q.dir ?? 'asc';
  if (!pick) return dir === 'desc' ? matched.reverse() : matched;
  return matched.sort((a, b) => compareValues(pick(a), pick(b), dir) || compareFleetRows(a, b));
}

/**
 * The fleet view sized by the screen: every aggregate (totals, namespaces, top workloads,
 * distribution) stays whole, the rows are the asked page of the filtered, sorted fleet.
 */
export function pageFleet(view: FleetView, q: FleetQuery): FleetView {
  const selected = selectFleetRows(view.rows, q);
  const limit = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(q.limit ?? DEFAULT_PAGE_SIZE)));
  const offset = Math.min(Math.max(0, Math.floor(q.offset ?? 0)), Math.max(0, selected.length - 1));
  const inNs = q.namespace ? view.rows.filter((r) => r.namespace === q.namespace) : view.rows;
  return {
    ...view,
    rows: selected.slice(offset, offset + limit),
    page: {
      offset,
      limit,
      matched: selected.length,
      namespace: q.namespace ?? null,
      workload: q.workload ?? null,
      q: q.q ?? null,
      sort: q.sort && SORT_VALUES[q.sort] ? q.sort : 'rank',
      dir: q.dir ?? 'asc',
      namespaces: distinctValues(view.rows, (r) => r.namespace),
      workloads: distinctValues(inNs, (r) => r.workload),
    },
  };
}

/** The fleet parameters of a /api/proxies/fleet URL, by kind (lib/api/param-kinds.ts). */
export const FLEET_QUERY_KINDS = {
  namespace: 'namespace',
  workload: 'workload',
  q: 'text',
  sort: 'token',
  dir: 'dir',
  offset: 'count',
  limit: 'limit',
} as const;

/**
 * The fleet query of a URL (the screen's state: ?namespace=&workload=&q=&sort=&dir=&offset=&limit=),
 * each parameter by its kind (lib/api/param-kinds.ts): a value that cannot be used, a sort key
 * the table does not have or a page larger than MAX_PAGE_SIZE is the 400 naming it.
 */
export function parseFleetQuery(sp: URLSearchParams): FleetQuery {
  const v = queryParams(sp, FLEET_QUERY_KINDS);
  if (v.sort !== undefined && !(FLEET_SORT_KEYS as readonly string[]).includes(v.sort))
    throw badParameter(
      'sort',
      `cannot sort by ${JSON.stringify(v.sort)}`,
      `one of ${FLEET_SORT_KEYS.join(', ')}`,
    );
  if (v.limit !== undefined && v.limit > MAX_PAGE_SIZE)
    throw badParameter('limit', `${v.limit} is more than ${MAX_PAGE_SIZE}`);
  const { namespace, workload, q, sort, dir, offset, limit } = v;
  return { namespace, workload, q, sort, dir, offset, limit };
}

/** The URL query of a fleet query (empty values left out), the inverse of parseFleetQuery. */
export function fleetQueryString(q: FleetQuery): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== '') sp.set(k, String(v));
  return sp.toString();
}

/** The fleet query of the Proxies screen's URL state (`page` is 1-based, DEFAULT_PAGE_SIZE rows). */
export function fleetQueryOfView(state: {
  namespace?: string;
  workload?: string;
  q?: string;
  sort?: string;
  dir?: 'asc' | 'desc';
  page?: string;
}): FleetQuery {
  const page = Math.max(1, Number(state.page ?? '1') || 1);
  return {
    namespace: state.namespace,
    workload: state.workload,
    q: state.q,
    sort: state.sort,
    dir: state.dir,
    offset: (page - 1) * DEFAULT_PAGE_SIZE,
    limit: DEFAULT_PAGE_SIZE,
  };
}
