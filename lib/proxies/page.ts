import type { ProxyFleetRow, FleetView } from '../api/proxies';
import { compareFleetRows } from './fleet';
import { distinctValues, filterFleetRows } from './filter';
import { objectKey } from '../refs/object-ref';

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

const str = (v: string | null) => (v && v.trim() !== '' ? v.trim().slice(0, 253) : undefined);
const int = (v: string | null) => {
  const n = Number(v);
  return v !== null && v !== '' && Number.isInteger(n) && n >= 0 ? n : undefined;
};

/** The fleet query of a URL (the screen's state: ?namespace=&workload=&q=&sort=&dir=&offset=&limit=). */
export function parseFleetQuery(sp: URLSearchParams): FleetQuery {
  const dir = sp.get('dir');
  const sort = str(sp.get('sort'));
  return {
    namespace: str(sp.get('namespace')),
    workload: str(sp.get('workload')),
    q: str(sp.get('q')),
    sort: sort && (FLEET_SORT_KEYS as readonly string[]).includes(sort) ? sort : undefined,
    dir: dir === 'desc' ? 'desc' : dir === 'asc' ? 'asc' : undefined,
    offset: int(sp.get('offset')),
    limit: int(sp.get('limit')),
  };
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
