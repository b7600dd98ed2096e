/**
 * Incidents from the history store first: a client proxy's log is read only for what the store
 * does not cover yet (its read watermark), what is read is recorded, and the window is answered
 * from the recorded failures with the attribution they were recorded with. Clients whose pods
 * are gone are answered from the store alone.
 */
import type { Pod } from '../../../lib/kube/types';
import type { IncidentsQuery } from '../../../lib/incidents/choose';
import type { Collected, RequestFilter } from '../../../lib/incidents/collect';
import type { LogInput } from '../../../lib/incidents/log-input';
import type { FailureStore, StoredFailure } from '../../../lib/incidents/failure-store';
import { clientLags, type ClientLag } from '../../../lib/incidents/lag';
import { retentionText, windowMemory } from '../../../lib/incidents/memory';
import { readFailures, storedRequests, type LogRead } from '../../../lib/incidents/read-failures';
import type { IpHistory } from '../../../lib/ledger/ip-history';
import type { PodInterval } from '../../../lib/ledger/types';
import { emptyUntimed, noteUntimed } from '../../../lib/ledger/untimed';
import type { IncidentsView } from '../../../lib/api/incidents';
import { refList } from '../../../lib/api/viewstate';
import { mapBounded } from '../../../lib/proxies/pool';
import { podIdKey, podKeyOf, podKeyOfObject, parsePodKey } from '../../../lib/refs/pod-ref';
import { workloadKey, workloadOfOwner } from '../../../lib/refs/workload-ref';
import { podLogs } from '../../kube/logs';
import type { KubeTransport } from '../../kube/transport';
import { LOG_CONCURRENCY, LOG_LIMIT_BYTES, LOG_TAIL_LINES } from './client-logs';

/** A read after a watermark starts this much before it (the kubelet's sinceTime is per second). */
const OVERLAP_MS = 5_000;

export interface Window {
  fromMs: number;
  toMs: number;
}

/** A chosen client and how much of its log is still to read (none: the store covers the window). */
interface ReadPlan {
  pod: Pod;
  proxy: string;
  uid: string | null;
  sinceTime?: string;
  tailLines?: number;
  /** From when this read covers the log (null: its start, unless the tail cut it). */
  readFrom: number | null;
}

/** Which chosen clients' logs to read, and from when; the others the store covers already. */
export function planReads(
  chosen: readonly Pod[],
  store: FailureStore,
  q: IncidentsQuery,
  window: Window,
): { reads: ReadPlan[]; covered: string[] } {
  const reads: ReadPlan[] = [];
  const covered: string[] = [];
  for (const pod of chosen) {
    const proxy = podKeyOfObject(pod);
    const uid = pod.metadata.uid ?? null;
    const w = store.watermark(proxy);
    const same = w !== null && (w.proxyUid === null || uid === null || w.proxyUid === uid);
    // the reads so far cover the log from the window's start without a gap
    const fromStart =
      same && (w.readFrom === null || w.readFrom === undefined || w.readFrom <= window.fromMs);
    if (fromStart && w.readTo >= window.toMs) {
      covered.push(proxy);
      continue;
    }
    if (fromStart && w.readTo - OVERLAP_MS > window.fromMs) {
      const since = w.readTo - OVERLAP_MS;
      reads.push({ pod, proxy, uid, sinceTime: new Date(since).toISOString(), readFrom: since });
    } else if (q.from) reads.push({ pod, proxy, uid, sinceTime: q.from, readFrom: window.fromMs });
    else reads.push({ pod, proxy, uid, tailLines: LOG_TAIL_LINES, readFrom: null });
  }
  return { reads, covered };
}

/** Reads the planned logs, records their failing requests and moves each proxy's watermark. */
export async function readAndRecord(
  t: KubeTransport,
  plans: readonly ReadPlan[],
  store: FailureStore,
  history: () => IpHistory,
  nowMs: number,
  format: string | undefined,
  window?: Window,
  /** Settles when the view must answer: logs not in by then are named late, and still kept. */
  until?: Promise<unknown>,
): Promise<LogRead[]> {
  const failed = (p: ReadPlan, problem: string): LogRead =>
    readFailures(
      { source: p.proxy, clientPod: p.proxy, text: '', problem },
      'view',
      p.uid,
      history(),
      { format, window },
    );
  return mapBounded(
    plans,
    LOG_CONCURRENCY,
    async (p): Promise<LogRead> => {
      const ns = p.pod.metadata.namespace ?? 'default';
      let input: LogInput;
      try {
        const text = await podLogs(t, ns, p.pod.metadata.name, 'istio-proxy', {
          sinceTime: p.sinceTime,
          tailLines: p.tailLines,
          limitBytes: LOG_LIMIT_BYTES,
        });
        input = { source: p.proxy, clientPod: p.proxy, text };
      } catch (e) {
        input = {
          source: p.proxy,
          clientPod: p.proxy,
          text: '',
          problem: e instanceof Error ? e.message : String(e),
        };
      }
      // recorded as it comes in: a log read past the view's deadline serves the next answer
      return recordRead(p, input, store, history(), nowMs, format, window);
    },
    {
      onThrow: (e, p) => failed(p, String(e)),
      ...(until
        ? {
            deadline: until,
            late: (p: ReadPlan) =>
              failed(
                p,
                "not read by the view's deadline (the read goes on; the next answer takes it from the store)",
              ),
          }
        : {}),
    },
  );
}

/** One log read: its failing requests recorded and the span it covers marked read in the store. */
function recordRead(
  p: ReadPlan,
  input: LogInput,
  store: FailureStore,
  ips: IpHistory,
  nowMs: number,
  format: string | undefined,
  window: Window | undefined,
): LogRead {
  const r = readFailures(input, 'view', p.uid, ips, { format, window });
  if (input.problem) return r;
  store.record(r.failures, nowMs);
  const cut = Buffer.byteLength(input.text) >= LOG_LIMIT_BYTES;
  // a tail of as many lines as asked may not reach the log's start: it covers from its oldest
  const tailCut = p.tailLines !== undefined && r.source.lines >= p.tailLines;
  store.markRead({
    proxy: p.proxy,
    proxyUid: p.uid,
    readTo: cut ? (r.newest ?? nowMs) : nowMs,
    readFrom: tailCut ? (r.oldest ?? nowMs) : p.readFrom,
    readAt: nowMs,
    read: 'view',
  });
  return r;
}

/** The window's proxies the query asks about: the Client filter, else a namespace, else all. */
/**
 * The proxies whose recorded failures the query shows: those asked for, else the namespace's
 * and the clients chosen for it (ambient: the ztunnels of its pods' nodes, in istio-system, whose
 * log is where its pods' requests are), as a fresh read of their logs would show them.
 */
function proxyFilter(
  q: IncidentsQuery,
  chosen: ReadonlySet<string>,
): ((proxy: string) => boolean) | null {
  const asked = refList(q.client);
  if (asked.length > 0) {
    const set = new Set(asked);
    return (p) => set.has(p);
  }
  if (q.namespace) {
    const ns = q.namespace;
    return (p) => namespaceOf(p) === ns || chosen.has(p);
  }
  return null;
}

function namespaceOf(proxy: string): string | null {
  try {
    return parsePodKey(proxy).namespace;
  } catch {
    return null; // an upload's label
  }
}

/**
 * Client pods of the window that are gone and whose logs meshdx never read: pods of the
 * clients' workloads (the chosen ones and those in the store) that held an IP during the window
 * and left before a read.
 */
export function goneUnread(
  intervals: readonly PodInterval[],
  clientWorkloads: ReadonlySet<string>,
  store: FailureStore,
  window: Window,
): string[] {
  const out = new Set<string>();
  for (const i of intervals) {
    if (i.goneAt === null || !i.owner) continue;
    if (i.from > window.toMs || i.goneAt < window.fromMs) continue;
    if (!clientWorkloads.has(workloadKey(workloadOfOwner(i.owner, i)))) continue;
    const key = podKeyOf(i);
    if (out.has(key)) continue;
    if (store.watermark(key) === null) out.add(key);
  }
  return [...out];
}

/** Owner workloads of pods, by their intervals (a gone pod's workload is its owner's). */
function workloadsOf(pods: Iterable<string>, intervals: readonly PodInterval[]): Set<string> {
  const wanted = new Set(pods);
  const out = new Set<string>();
  for (const i of intervals) {
    if (!i.owner || !wanted.has(podKeyOf(i))) continue;
    out.add(workloadKey(workloadOfOwner(i.owner, i)));
  }
  return out;
}

export interface StoreAnswer {
  collected: Collected;
  memory: NonNullable<IncidentsView['memory']>;
  lags: ClientLag[];
}

/**
 * The window answered from the store, with what this request read. `store` is the store as the
 * requesting identity may see it (failure-access.ts); `hiddenNamespaces` what that leaves out.
 */
export function answerFromStore(
  store: FailureStore,
  q: IncidentsQuery,
  window: Window,
  filter: RequestFilter,
  reads: readonly LogRead[],
  covered: readonly string[],
  intervals: readonly PodInterval[],
  hiddenNamespaces: readonly string[] = [],
): StoreAnswer {
  const keep = proxyFilter(q, new Set([...reads.map((r) => r.source.source), ...covered]));
  const all: StoredFailure[] = store.inWindow(window);
  const stored = keep ? all.filter((f) => keep(f.source.proxy)) : all;
  const requests = storedRequests(stored, filter);
  const byRead = { view: 0, live: 0, upload: 0, otlp: 0, deletion: 0 };
  for (const f of stored) byRead[f.source.read]++;

  const proxies = new Set<string>();
  for (const f of stored) if (namespaceOf(f.source.proxy) !== null) proxies.add(f.source.proxy);
  for (const r of reads) proxies.add(r.source.source);
  for (const c of covered) proxies.add(c);
  const workloads = workloadsOf(proxies, intervals);
  const unread = goneUnread(intervals, workloads, store, window).filter((p) => !keep || keep(p));

  const untimed = emptyUntimed();
  let records = 0;
  let outsideWindow = 0;
  let inbound = 0;
  for (const r of reads) {
    records += r.inWindow;
    inbound += r.inbound;
    for (const f of r.failures) {
      const t = f.fields.time;
      if (t === null) noteUntimed(untimed, 0);
      else if (t < window.fromMs || t > window.toMs) outsideWindow++;
    }
  }
  const storeOnly = new Set([...proxies].filter((p) => !reads.some((r) => r.source.source === p)))
    .size;
  const memory = windowMemory(
    byRead,
    unread,
    { readNow: reads.length, fromStoreOnly: storeOnly },
    hiddenNamespaces,
  );
  const deletion = deletionIndex(intervals);
  return {
    collected: {
      requests,
      sources: reads.map((r) => r.source),
      lineErrors: reads.flatMap((r) => r.lineErrors),
      records,
      failing: stored.length,
      outsideWindow,
      inbound,
      untimed,
    },
    memory: { ...memory, retention: retentionText(store.retention()) },
    lags: clientLags(stored, (p) => deletion.get(podIdKey(p)) ?? null),
  };
}

/** When each pod's deletion started, by uid (else ns/name), from the history now. */
function deletionIndex(intervals: readonly PodInterval[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const i of intervals)
    if (i.deletionStartedAt !== null) m.set(podIdKey(i), i.deletionStartedAt);
  return m;
}
