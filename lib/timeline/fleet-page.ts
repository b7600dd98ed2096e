/**
 * The Timelines fleet sized by the screen: the server filters, sorts and pages the rows (the URL
 * keeps the state), so a screen of 50 rows never ships 50,000. The counts the stat cards show
 * are of the whole filtered set, never of the page.
 */
import type { TimelineFleetRow, TimelineFleet, TimelinePage } from '../api/timelines';
import { badParameter } from '../api/request-error';
import { queryParams } from '../api/param-kinds';
import { rfc3339Problem } from '../api/viewstate';
import { VERDICT_NAMES } from './verdicts';
import { aliveDuring } from './window';
import { groupFindings, narrowGroups } from '../findings/group';
import { holdCounts, workloadTimelineFindings } from './workload-findings';

export interface TimelineQuery {
  namespace?: string;
  workload?: string;
  /** Only pods with this verdict (the stat cards still count every verdict of the filtered set). */
  verdict?: string;
  /** Part of the pod's name. */
  q?: string;
  /** Pods alive at some moment of [from, to] (RFC 3339). */
  from?: string;
  to?: string;
  /** A column of the fleet table (TIMELINE_SORT_KEYS); default the verdict ranking. */
  sort?: string;
  dir?: 'asc' | 'desc';
  offset?: number;
  limit?: number;
}

export const TIMELINE_PAGE_SIZE = 50;
/** Fixes sent with a page (the card lists this many and says how many more match). */
export const FIXES_PER_PAGE = 40;
/** Workloads of the modes card besides those whose mode flips (it shows 12 at most). */
const MODES_PER_PAGE = 12;
export const MAX_TIMELINE_PAGE_SIZE = 500;

/** Harm first, then the gap: the worst races lead (the default order). */
const verdictRank = (r: TimelineFleetRow) =>
  r.harm * 1e9 + Math.max(-5e8, Math.min(5e8, r.gapMs ?? 0));

const SORT_VALUES: Record<string, (r: TimelineFleetRow) => string | number> = {
  verdict: verdictRank,
  namespace: (r) => r.namespace,
  name: (r) => r.name,
  workload: (r) => r.workload,
  mode: (r) => r.mode,
  gap: (r) => r.gapMs ?? Number.MAX_SAFE_INTEGER,
  ready: (r) => r.proxyReadySource,
  restarts: (r) => r.restarts + r.proxyRestarts,
  phase: (r) => r.phase,
};

export const TIMELINE_SORT_KEYS = Object.keys(SORT_VALUES);

function compare(a: string | number, b: string | number): number {
  return typeof a === 'number' && typeof b === 'number'
    ? a - b
    : String(a).localeCompare(String(b));
}

const tieBreak = (a: TimelineFleetRow, b: TimelineFleetRow) =>
  a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name);

/** Rows matching every filter but the verdict (the set the stat cards count). */
function matchesBase(r: TimelineFleetRow, q: TimelineQuery, needle: string | undefined): boolean {
  return (
    (!q.namespace || r.namespace === q.namespace) &&
    (!q.workload || r.workload === q.workload) &&
    (!needle || r.name.includes(needle)) &&
    aliveDuring(r, q.from, q.to)
  );
}

const sorted = (xs: Iterable<string>) => [...new Set(xs)].sort();

/** The fleet with one page of its filtered, sorted rows and the counts of the filtered set. */
export function pageTimelineFleet(
  fleet: TimelineFleet,
  q: TimelineQuery,
): TimelineFleet & { page: TimelinePage } {
  const needle = q.q?.toLowerCase();
  const base = fleet.rows.filter((r) => matchesBase(r, q, needle));
  const byVerdict: Record<string, number> = {};
  const byMode: Record<string, number> = {};
  let deleted = 0;
  for (const r of base) {
    for (const v of r.verdicts) byVerdict[v] = (byVerdict[v] ?? 0) + 1;
    byMode[r.mode] = (byMode[r.mode] ?? 0) + 1;
    if (r.deleted) deleted++;
  }
  const matched = q.verdict
    ? base.filter((r) => r.verdicts.includes(q.verdict as TimelineFleetRow['verdicts'][number]))
    : base;
  const key = q.sort && SORT_VALUES[q.sort] ? q.sort : 'verdict';
  const pick = SORT_VALUES[key] ?? verdictRank;
  const dir = q.dir ?? 'asc';
  const ordered = [...matched].sort((a, b) => {
    const c = compare(pick(a), pick(b));
    return (dir === 'asc' ? c : -c) || tieBreak(a, b);
  });
  const limit = Math.min(
    MAX_TIMELINE_PAGE_SIZE,
    Math.max(1, Math.floor(q.limit ?? TIMELINE_PAGE_SIZE)),
  );
  const offset = Math.min(Math.max(0, Math.floor(q.offset ?? 0)), Math.max(0, ordered.length - 1));
  const inNs = (x: { namespace: string }) => !q.namespace || x.namespace === q.namespace;
  const ofWorkload = (name: string) => !q.workload || name === q.workload;
  const fixes = fleet.fixes.filter(
    (x) => inNs(x) && ofWorkload(x.name) && (!q.verdict || x.verdict === q.verdict),
  );
  const modes = fleet.modes.filter(inNs);
  const hold = holdCounts(fleet);
  const all = groupFindings(workloadTimelineFindings(fleet), hold);
  const groups = q.namespace ? narrowGroups(all, (o) => o.subject.namespace === q.namespace) : all;
  return {
    ...fleet,
    rows: ordered.slice(offset, offset + limit),
    // per-workload parts sized by the screen: the gap chart's workloads of the filter, the first
    // fixes (the card lists 40 and counts the rest), the workloads whose mode flips and a few
    // more; what matters first is grouped here from every fix and mode of the namespace
    workloads: fleet.workloads.filter((w) => inNs(w) && ofWorkload(w.name)),
    fixes: fixes.slice(0, FIXES_PER_PAGE),
    modes: [
      ...modes.filter((m) => m.flips),
      ...modes.filter((m) => !m.flips).slice(0, MODES_PER_PAGE),
    ],
    page: {
      offset,
      limit,
      matched: ordered.length,
      sort: key,
      dir,
      counts: { pods: base.length, byVerdict, byMode, deleted },
      deletedInFleet: fleet.rows.reduce((n, r) => n + (r.deleted ? 1 : 0), 0),
      namespaces: sorted(fleet.rows.map((r) => r.namespace)),
      workloads: sorted(fleet.rows.filter(inNs).map((r) => r.workload)),
      hold,
      fixesMatched: fixes.length,
      modesMatched: modes.length,
      groups,
    },
  };
}

/** The parameters of a /api/timelines URL, by kind (lib/api/param-kinds.ts). */
export const TIMELINE_QUERY_KINDS = {
  namespace: 'namespace',
  workload: 'workload',
  verdict: 'verdict',
  q: 'text',
  from: 'time',
  to: 'time',
  sort: 'token',
  dir: 'dir',
  offset: 'count',
  limit: 'limit',
} as const;

/**
 * The query of a /api/timelines URL (?namespace=&workload=&verdict=&q=&from=&to=&sort=&dir=
 * &offset=&limit=), each parameter by its kind. A value that cannot be used is a 400 naming the
 * parameter, never ignored: a sort key the table does not have, a page over the largest, a
 * window bound not yet made absolute (RFC 3339) included.
 */
export function parseTimelineQuery(sp: URLSearchParams): TimelineQuery {
  const v = queryParams(sp, TIMELINE_QUERY_KINDS);
  const q: TimelineQuery = {};
  if (v.namespace !== undefined) q.namespace = v.namespace;
  if (v.workload !== undefined) q.workload = v.workload;
  if (v.verdict !== undefined) q.verdict = v.verdict;
  const needle = v.q?.trim();
  if (needle) q.q = needle;
  for (const k of ['from', 'to'] as const) {
    const t = v[k];
    if (t === undefined) continue;
    const problem = rfc3339Problem(t);
    if (problem) throw badParameter(k, problem);
    q[k] = new Date(t).toISOString();
  }
  if (v.sort !== undefined) {
    if (!TIMELINE_SORT_KEYS.includes(v.sort))
      throw badParameter(
        'sort',
        `cannot sort by ${JSON.stringify(v.sort)}`,
        `one of ${TIMELINE_SORT_KEYS.join(', ')}`,
      );
    q.sort = v.sort;
  }
  if (v.dir !== undefined) q.dir = v.dir;
  if (v.offset !== undefined) q.offset = v.offset;
  if (v.limit !== undefined) {
    if (v.limit > MAX_TIMELINE_PAGE_SIZE)
      throw badParameter('limit', `${v.limit} is more than ${MAX_TIMELINE_PAGE_SIZE}`);
    q.limit = v.limit;
  }
  return q;
}

/** The URL query of a timeline query, the inverse of parseTimelineQuery (empty values left out). */
export function timelineQueryString(q: TimelineQuery): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== '') sp.set(k, String(v));
  return sp.toString();
}

/** The query of the Timelines screen's URL state (`page` 1-based, TIMELINE_PAGE_SIZE rows). */
export function timelineQueryOfView(state: {
  namespace?: string;
  workload?: string;
  verdict?: string;
  q?: string;
  from?: string;
  to?: string;
  sort?: string;
  dir?: 'asc' | 'desc';
  page?: string;
}): TimelineQuery {
  const page = Math.max(1, Number(state.page ?? '1') || 1);
  const verdict =
    state.verdict && (VERDICT_NAMES as readonly string[]).includes(state.verdict)
      ? state.verdict
      : undefined;
  const sort = state.sort && TIMELINE_SORT_KEYS.includes(state.sort) ? state.sort : undefined;
  const q: TimelineQuery = {
    namespace: state.namespace,
    workload: state.workload,
    verdict,
    q: state.q?.toLowerCase(),
    from: state.from,
    to: state.to,
    sort,
    dir: state.dir,
    offset: (page - 1) * TIMELINE_PAGE_SIZE,
    limit: TIMELINE_PAGE_SIZE,
  };
  for (const k of Object.keys(q) as (keyof TimelineQuery)[]) if (q[k] === undefined) delete q[k];
  return q;
}
