/**
 * The pods table of a live session: each row received adds to its upstream pod's row, and the
 * session's rows are merged with the snapshot's, so the table counts what the cards count.
 */
import type { Marker, RequestRow, UpstreamPodRow } from '../api/incidents';
import { podIdKey, podKeyOf } from '../refs/pod-ref';

const STATE_RANK: Record<RequestRow['state'], number> = {
  unknown: 0,
  live: 1,
  terminating: 2,
  terminated: 3,
};

/** The pods table's key of a pod: podIdKey, "" for an IP no pod held. */
export const podRowKey = (p: UpstreamPodRow['pod']) => (p ? podIdKey(p) : '');

const withItem = (list: readonly string[], x: string | null, max = 20) =>
  x === null || list.includes(x) || list.length >= max ? [...list] : [...list, x].sort();

/** A pods-table row with one more request (a new object: the old one is React state). */
export function addToPodRow(p: UpstreamPodRow | undefined, r: RequestRow): UpstreamPodRow {
  const base: UpstreamPodRow = p ?? {
    pod: r.pod,
    owner: r.owner,
    node: null,
    state: r.state,
    count: 0,
    byState: {},
    byFlag: {},
    byCode: {},
    upstreamIps: [],
    firstTime: null,
    lastTime: null,
    maxAfterTerminationMs: null,
    deletionStartedAt: null,
    goneAt: null,
    services: [],
    clients: [],
  };
  const byFlag = { ...base.byFlag };
  for (const f of r.flags.length ? r.flags : ['-']) byFlag[f] = (byFlag[f] ?? 0) + 1;
  const code = r.code === null ? '-' : String(r.code);
  return {
    ...base,
    state: STATE_RANK[r.state] > STATE_RANK[base.state] ? r.state : base.state,
    count: base.count + 1,
    byState: { ...base.byState, [r.state]: (base.byState[r.state] ?? 0) + 1 },
    byFlag,
    byCode: { ...base.byCode, [code]: (base.byCode[code] ?? 0) + 1 },
    upstreamIps: withItem(base.upstreamIps, r.upstreamIp),
    firstTime:
      r.time !== null && (base.firstTime === null || r.time < base.firstTime)
        ? r.time
        : base.firstTime,
    lastTime:
      r.time !== null && (base.lastTime === null || r.time > base.lastTime)
        ? r.time
        : base.lastTime,
    maxAfterTerminationMs:
      r.afterTerminationMs === null
        ? base.maxAfterTerminationMs
        : Math.max(base.maxAfterTerminationMs ?? -Infinity, r.afterTerminationMs),
    services: withItem(base.services, r.service, Infinity),
    clients: withItem(base.clients, r.client, Infinity),
  };
}

/** Two rows of the same pod (the snapshot's and the live session's) as one. */
export function mergePodRows(a: UpstreamPodRow, b: UpstreamPodRow): UpstreamPodRow {
  const sum = (x: Record<string, number>, y: Record<string, number>) => {
    const out = { ...x };
    for (const [k, n] of Object.entries(y)) out[k] = (out[k] ?? 0) + n;
    return out;
  };
  const min = (x: string | null, y: string | null) =>
    x === null ? y : y === null || x < y ? x : y;
  const max = (x: string | null, y: string | null) =>
    x === null ? y : y === null || x > y ? x : y;
  const union = (x: readonly string[], y: readonly string[]) => [...new Set([...x, ...y])].sort();
  return {
    ...a,
    state: STATE_RANK[b.state] > STATE_RANK[a.state] ? b.state : a.state,
    count: a.count + b.count,
    byState: sum(a.byState, b.byState),
    byFlag: sum(a.byFlag, b.byFlag),
    byCode: sum(a.byCode, b.byCode),
    upstreamIps: union(a.upstreamIps, b.upstreamIps).slice(0, 20),
    firstTime: min(a.firstTime, b.firstTime),
    lastTime: max(a.lastTime, b.lastTime),
    maxAfterTerminationMs:
      a.maxAfterTerminationMs === null
        ? b.maxAfterTerminationMs
        : Math.max(a.maxAfterTerminationMs, b.maxAfterTerminationMs ?? -Infinity),
    services: union(a.services, b.services),
    clients: union(a.clients, b.clients),
  };
}

/** Most requests first, then the worst state. */
export function sortPodRows(rows: UpstreamPodRow[]): UpstreamPodRow[] {
  return rows.sort((x, y) => y.count - x.count || STATE_RANK[y.state] - STATE_RANK[x.state]);
}

/** A pod first seen live gets its deletion start and removal from the chart's markers. */
export function withDeletions(
  rows: readonly UpstreamPodRow[],
  markers: readonly Marker[],
): UpstreamPodRow[] {
  const at = new Map<string, string>();
  for (const m of markers) at.set(`${m.kind}|${m.pod}`, m.at);
  return rows.map((r) => {
    if (!r.pod || (r.deletionStartedAt !== null && r.goneAt !== null)) return r;
    const key = podKeyOf(r.pod);
    return {
      ...r,
      deletionStartedAt: r.deletionStartedAt ?? at.get(`termination|${key}`) ?? null,
      goneAt: r.goneAt ?? at.get(`gone|${key}`) ?? null,
    };
  });
}
