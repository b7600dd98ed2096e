/**
 * Live incident mode, pure parts: one attributor per followed log turns each new line into a
 * failing-request row (attributed against the pod-IP history as it is when the line arrives),
 * and the browser keeps what arrives in a bounded buffer: the table's newest rows, and counts,
 * chart bins and pods-table rows of every row received.
 */
import { createLineParser } from '../accesslog/parser';
import { isFailure } from '../accesslog/failure';
import { parseClusterName } from '../refs/cluster-name';
import type { AccessLogRecord } from '../accesslog/types';
import { attributeRecord } from '../ledger/attribution';
import type { IpHistory } from '../ledger/ip-history';
import type { IncidentsView, Marker, RequestRow, UpstreamPodRow } from '../api/incidents';
import { bucketSizeMs } from './chart';
import { addToPodRow, mergePodRows, podRowKey, sortPodRows, withDeletions } from './live-pods';
import { addToBins, commonStep, mergeBuckets, newLiveBins, type LiveBins } from './live-bins';
import { matches, type RequestFilter } from './collect';
import { requestRows } from './rows';

export type LineOutcome =
  | {
      kind: 'request';
      attribute: () => RequestRow;
      /** The line as read and its record (for the history store). */
      line: string;
      record: AccessLogRecord;
    }
  | { kind: 'ok' | 'skipped' | 'error' | 'inbound' | 'filtered' };

/**
 * Reads one client's followed log line by line. A failing line comes back with `attribute()`,
 * which asks `history()` when called: the caller may wait for the pod watch to catch up (a proxy
 * logs a 503 the moment the pod's deletion starts, the watch event may come a moment later).
 */
export function createLiveAttributor(
  source: string,
  filter: RequestFilter,
  history: () => IpHistory,
): (line: string) => LineOutcome {
  const parser = createLineParser({ format: filter.format });
  return (line) => {
    const r = parser.push(line);
    if (r.kind === 'skipped') return { kind: 'skipped' };
    if (r.kind === 'error') return { kind: 'error' };
    const rec = r.record;
    if (!isFailure(rec)) return { kind: 'ok' };
    if (parseClusterName(rec.upstreamCluster)?.direction === 'inbound') return { kind: 'inbound' };
    if (!matches(rec, filter)) return { kind: 'filtered' };
    return {
      kind: 'request',
      line,
      record: rec,
      attribute: () => {
        const a = attributeRecord(rec, history(), { gapToleranceMs: filter.gapToleranceMs });
        const [row] = requestRows([{ ...a, source, timeMs: rec.time, clientName: source }], 1);
        if (!row) throw new Error('no row for an attributed request');
        return row;
      },
    };
  };
}

export interface LiveStats {
  lines: number;
  records: number;
  failing: number;
  skipped: number;
  errors: number;
}

export const emptyStats = (): LiveStats => ({
  lines: 0,
  records: 0,
  failing: 0,
  skipped: 0,
  errors: 0,
});

/** Adds one line's outcome to the stats. */
export function countOutcome(s: LiveStats, o: LineOutcome): void {
  s.lines++;
  if (o.kind === 'skipped') s.skipped++;
  else if (o.kind === 'error') s.errors++;
  else s.records++;
  if (o.kind === 'request' || o.kind === 'inbound' || o.kind === 'filtered') s.failing++;
}

/**
 * What the browser holds of a live session: the newest `cap` rows for the table, and counts of
 * every row received (by state, per chart bin, per upstream pod): rows past the cap leave the
 * table, never the counts, the chart or the pods table.
 */
export interface LiveBuffer {
  rows: RequestRow[];
  cap: number;
  /** Rows received in all (dropped ones included). */
  received: number;
  dropped: number;
  byState: Record<string, number>;
  /** Every row received, per bin (coarser bins for old data when there are many). */
  bins: LiveBins;
  /** Every row received, per upstream pod (podIdKey; "" for an IP no pod held). */
  pods: ReadonlyMap<string, UpstreamPodRow>;
  /** Latest request time seen (ms), null before the first. */
  latestMs: number | null;
  keys: Set<string>;
}

export function newLiveBuffer(cap = 2000): LiveBuffer {
  return {
    rows: [],
    cap,
    received: 0,
    dropped: 0,
    byState: {},
    bins: newLiveBins(),
    pods: new Map(),
    latestMs: null,
    keys: new Set(),
  };
}

const rowKey = (r: RequestRow) =>
  `${r.source}|${r.time}|${r.upstream}|${r.code}|${r.flags.join(',')}`;

/**
 * Adds rows (a resumed follow may repeat the lines of its first second: those are skipped),
 * dropping the oldest rows past the cap from the table only. Returns a new buffer (React state).
 */
export function pushLive(buf: LiveBuffer, rows: readonly RequestRow[]): LiveBuffer {
  const next: LiveBuffer = { ...buf, byState: { ...buf.byState }, keys: new Set(buf.keys) };
  const fresh: RequestRow[] = [];
  const pods = new Map(buf.pods);
  for (const r of rows) {
    const k = rowKey(r);
    if (next.keys.has(k)) continue;
    next.keys.add(k);
    fresh.push(r);
    next.received++;
    next.byState[r.state] = (next.byState[r.state] ?? 0) + 1;
    const key = podRowKey(r.pod);
    pods.set(key, addToPodRow(pods.get(key), r));
    const t = r.time ? Date.parse(r.time) : NaN;
    if (Number.isFinite(t)) next.latestMs = Math.max(next.latestMs ?? t, t);
  }
  if (fresh.length === 0) return buf;
  next.pods = pods;
  next.bins = addToBins(
    buf.bins,
    fresh.map((r) => {
      const t = r.time ? Date.parse(r.time) : NaN;
      return { timeMs: Number.isFinite(t) ? t : null, flags: r.flags };
    }),
  );
  let all = [...buf.rows, ...fresh];
  if (all.length > next.cap) {
    const cut = all.length - next.cap;
    for (const r of all.slice(0, cut)) next.keys.delete(rowKey(r));
    next.dropped += cut;
    all = all.slice(cut);
  }
  next.rows = all;
  return next;
}

/**
 * The view as live mode shows it, every figure over the same records: the snapshot's bins and
 * the live session's summed on one step over [snapshot start, latest line], the cards' counts
 * and the pods table from every row received, the table of requests with the newest rows held.
 */
export function mergeLive(
  view: IncidentsView,
  buf: LiveBuffer,
  live: { stats: LiveStats; markers: readonly Marker[] },
): IncidentsView {
  const fromMs = Date.parse(view.chart.from);
  const toMs = Math.max(Date.parse(view.chart.to), buf.latestMs ?? 0);
  const step = commonStep(bucketSizeMs(Math.max(0, toMs - fromMs)), [
    view.chart.bucketMs,
    buf.bins.stepMs,
  ]);
  const bins = mergeBuckets(fromMs, toMs, step, view.chart.buckets, buf.bins);
  const requests = [...view.requests, ...buf.rows].sort(
    (a, b) => Date.parse(a.time ?? '') - Date.parse(b.time ?? ''),
  );
  const seen = new Set(view.chart.markers.map((m) => `${m.kind}|${m.pod}`));
  const markers = [...view.chart.markers];
  for (const m of live.markers) {
    if (seen.has(`${m.kind}|${m.pod}`)) continue;
    seen.add(`${m.kind}|${m.pod}`);
    markers.push(m);
  }
  const byState = { ...view.totals.byState };
  for (const [k, n] of Object.entries(buf.byState)) byState[k] = (byState[k] ?? 0) + n;
  const pods = new Map(view.pods.map((p) => [podRowKey(p.pod), p]));
  for (const [k, p] of buf.pods) {
    const had = pods.get(k);
    pods.set(k, had ? mergePodRows(had, p) : p);
  }
  return {
    ...view,
    totals: {
      ...view.totals,
      records: view.totals.records + live.stats.records,
      failing: view.totals.failing + live.stats.failing,
      shown: view.totals.shown + buf.received,
      byState,
    },
    chart: {
      ...view.chart,
      to: new Date(toMs).toISOString(),
      bucketMs: step,
      buckets: bins.buckets,
      flags: bins.flags,
      markers: markers.sort((a, b) => a.at.localeCompare(b.at)),
    },
    pods: sortPodRows(withDeletions([...pods.values()], markers)),
    // the session records what it attributes: the store's count of the window grows with it
    memory:
      view.memory && buf.received > 0
        ? {
            ...view.memory,
            failing: view.memory.failing + buf.received,
            text: `${view.memory.text} Live: ${buf.received.toLocaleString('en')} more recorded as they arrived.`,
          }
        : view.memory,
    requests,
  };
}
