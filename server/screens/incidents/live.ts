/**
 * Live incident mode: follow the chosen client proxies' logs, attribute each new failing line
 * against the runtime's pod-IP history as it arrives, and hand batches to a sender (the SSE
 * route). Nothing accumulates here: rows go out as they come; the browser keeps a bounded buffer.
 * Aborting the signal ends every follow.
 */
import type { RequestRow } from '../../../lib/api/incidents';
import type { LiveBatch } from '../../../lib/api/incidents-live';
import { refList } from '../../../lib/api/viewstate';
import { countOutcome, createLiveAttributor, emptyStats } from '../../../lib/incidents/live';
import { terminationMarkers } from '../../../lib/incidents/markers';
import type { IpHistory } from '../../../lib/ledger/ip-history';
import { listPods } from '../../kube/resources';
import type { ClusterRuntime } from '../../runtime/runtime';
import { followCount, FollowError, followLog } from './follow';
import {
  chooseClients,
  churnByNamespace,
  filterOf,
  MAX_CLIENTS,
  type IncidentsQuery,
} from '../../../lib/incidents/choose';
import { runtimeIpHistory } from './ip-history';
import { parsePodKey } from '../../../lib/refs/pod-ref';
import { failureOf } from '../../../lib/incidents/failure-record';
import type { FailureInput } from '../../../lib/incidents/failure-store';

/** How often a live session moves its clients' read watermarks (ms). */
const MARK_EVERY_MS = 5_000;

/** A batch as the SSE route sends it: the wire type of lib/api/incidents-live.ts. */
export type { LiveBatch };

export interface LiveOptions {
  /** RFC 3339: follow from this time on (the end of the window already shown). */
  since?: string;
  flushMs?: number;
  /** How long a failing line waits for the pod watch before it is attributed (ms). */
  settleMs?: number;
  signal: AbortSignal;
  send: (b: LiveBatch) => void;
}

/** Runs until the signal aborts (or every follow has ended). */
export async function followIncidents(
  rt: ClusterRuntime,
  q: IncidentsQuery,
  opts: LiveOptions,
): Promise<void> {
  const source = runtimeIpHistory(rt);
  await source.ready.catch(() => undefined);
  // the store's table of its interval revision: built again only once pod intervals changed
  const history = (): IpHistory => source.load();
  let clients = refList(q.client).slice(0, MAX_CLIENTS);
  if (clients.length === 0) {
    const pods = await listPods(rt.transport);
    const now = rt.now().getTime();
    const churn = churnByNamespace(history().intervals(), now - 3_600_000, now);
    clients = chooseClients(pods.items, q, churn).choices.map((c) => c.pod);
  }
  const filter = filterOf({ ...q, from: undefined, to: undefined });
  const stats = emptyStats();
  const problems: LiveBatch['problems'] = [];
  const sinceMs = opts.since ? Date.parse(opts.since) : rt.now().getTime();
  const namespaces = new Set<string>();
  let rows: RequestRow[] = [];
  const settleMs = opts.settleMs ?? 1000;
  /** Failing lines waiting for the pod watch to catch up, oldest first. */
  let waiting: { at: number; attribute: () => RequestRow; record: () => FailureInput }[] = [];
  /** Attributed failures not yet written to the history store (one transaction per flush). */
  let toRecord: FailureInput[] = [];
  const attributeDue = (all: boolean) => {
    const now = Date.now();
    const due = all ? waiting : waiting.filter((w) => now - w.at >= settleMs);
    if (due.length === 0) return;
    waiting = all ? [] : waiting.filter((w) => now - w.at < settleMs);
    for (const w of due) {
      const row = w.attribute();
      toRecord.push(w.record());
      rows.push(row);
      if (row.pod) namespaces.add(row.pod.namespace);
      const t = row.time ? Date.parse(row.time) : NaN;
      if (Number.isFinite(t)) latest = Math.max(latest, t);
    }
    dirty = true;
  };
  let latest = sinceMs;
  let lastMarkers = '';
  let dirty = true;
  /** Clients whose follow has delivered lines and is still open. */
  const followed = new Set<string>();
  /**
   * Moves the read watermark of each followed client: its log is recorded from `since` on, up to
   * a little before now (lines still waiting to settle are not recorded yet). Only without a
   * service or IP filter, which would leave other failing lines unrecorded.
   */
  let lastMarkAt = 0;
  const markFollowed = () => {
    if (filter.service || filter.ip || followed.size === 0) return;
    if (Date.now() - lastMarkAt < MARK_EVERY_MS) return;
    lastMarkAt = Date.now();
    const now = rt.now().getTime();
    const readTo = now - 2 * settleMs - (opts.flushMs ?? 500);
    if (readTo <= sinceMs) return;
    try {
      for (const c of followed)
        rt.store.failures.markRead({
          proxy: c,
          proxyUid: null,
          readFrom: sinceMs,
          readTo,
          readAt: now,
          read: 'live',
        });
    } catch {
      // a watermark not moved only costs a later view a longer read
    }
  };
  const flush = (all = false) => {
    attributeDue(all);
    if (toRecord.length > 0) {
      const batch = toRecord;
      toRecord = [];
      try {
        rt.store.failures.record(batch, rt.now().getTime());
      } catch (e) {
        problems.push({
          source: 'history store',
          gone: false,
          problem: `recording ${batch.length} failing requests failed: ${e instanceof Error ? e.message : String(e)}`,
        });
      }
    }
    markFollowed();
    if (!dirty) return;
    dirty = false;
    const markers = namespaces.size
      ? terminationMarkers(history().intervals(), {
          fromMs: sinceMs - 10 * 60_000,
          toMs: latest + 60_000,
          namespaces,
        })
      : [];
    const key = JSON.stringify(markers);
    opts.send({
      rows,
      stats: { ...stats },
      markers: key === lastMarkers ? [] : markers,
      problems: [...problems],
      clients,
    });
    lastMarkers = key;
    rows = [];
  };
  const timer = setInterval(() => flush(), opts.flushMs ?? 500);
  try {
    await Promise.all(
      clients.map(async (c) => {
        const attribute = createLiveAttributor(c, filter, history);
        try {
          const { namespace: ns, name } = parsePodKey(c);
          await followLog(rt.transport, rt.kc, ns, name, {
            container: 'istio-proxy',
            sinceTime: new Date(sinceMs).toISOString(),
            signal: opts.signal,
            count: followCount(rt),
            onLine: (line) => {
              followed.add(c);
              const o = attribute(line);
              countOutcome(stats, o);
              dirty = true;
              if (o.kind === 'request')
                waiting.push({
                  at: Date.now(),
                  attribute: o.attribute,
                  record: () =>
                    failureOf(
                      o.line,
                      o.record,
                      { read: 'live', proxy: c, proxyUid: null },
                      history(),
                      {
                        gapToleranceMs: filter.gapToleranceMs,
                      },
                    ),
                });
            },
          });
        } catch (e) {
          problems.push(followProblem(c, e));
          dirty = true;
        } finally {
          followed.delete(c);
        }
      }),
    );
  } finally {
    clearInterval(timer);
    if (!opts.signal.aborted) {
      try {
        flush(true);
      } catch {
        // the runtime was stopped under us: nothing left to tell
      }
    }
  }
}

/**
 * Why a client's log could not be followed, in one line: a 404 for the pod means the client
 * went away (its log went with it), anything else is said with the API server's message.
 */
export function followProblem(client: string, e: unknown): LiveBatch['problems'][number] {
  if (e instanceof FollowError && e.status === 404)
    return {
      source: client,
      gone: true,
      problem: `client pod ${client} is gone; its log can no longer be read`,
    };
  return { source: client, gone: false, problem: e instanceof Error ? e.message : String(e) };
}
