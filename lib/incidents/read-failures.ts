import { isFailure } from '../accesslog/failure';
import { normalizeIp, parseAddress } from '../accesslog/address';
import { parseClusterName } from '../refs/cluster-name';
import type { AttributeOptions } from '../ledger/attribution';
import type { IpHistory } from '../ledger/ip-history';
import type { LogSource } from '../api/incidents';
import type { AttributedRequest, RequestFilter } from './collect';
import type { IncidentLineProblem, LogInput } from './log-input';
import { serviceMatches } from './collect';
import { failureOf } from './failure-record';
import { logRecords, newLogSource } from './log-lines';
import {
  attributedState,
  type FailureInput,
  type FailureRead,
  type StoredFailure,
} from './failure-store';

/** What one read of a log gave: its counts, its unreadable lines and its failing requests. */
export interface LogRead {
  source: LogSource;
  lineErrors: IncidentLineProblem[];
  /** Failing outbound requests, ready for FailureStore.record. */
  failures: FailureInput[];
  /** Failing inbound records (the server's side): counted, not recorded. */
  inbound: number;
  /** Request time of the newest record read (failing or not); null when none had a time. */
  newest: number | null;
  /** ...and of the oldest. */
  oldest: number | null;
  /** Requests read (failing or not) whose time is in `ReadOptions.window`; every one without. */
  inWindow: number;
}

export interface ReadOptions extends AttributeOptions {
  format?: string;
  /** Unreadable lines kept (the rest are counted). */
  maxLineErrors?: number;
  /** The window the view shows: `LogRead.inWindow` counts the requests read in it. */
  window?: { fromMs: number; toMs: number };
}

/**
 * Reads a log once: every failing outbound request becomes a FailureInput (raw line, source,
 * fields, attribution now). The proxy of a line is the pod a `kubectl logs --prefix` prefix
 * names, else the log's own client pod, else the log's label (an upload).
 */
export function readFailures(
  input: LogInput,
  read: FailureRead,
  proxyUid: string | null,
  history: IpHistory,
  opts: ReadOptions = {},
): LogRead {
  const out: LogRead = {
    source: newLogSource(input),
    lineErrors: [],
    failures: [],
    inbound: 0,
    newest: null,
    oldest: null,
    inWindow: 0,
  };
  const src = out.source;
  const w = opts.window;
  for (const { line, record: rec } of logRecords(
    input,
    src,
    opts.format,
    out.lineErrors,
    opts.maxLineErrors ?? 200,
  )) {
    if (rec.time !== null && (out.newest === null || rec.time > out.newest)) out.newest = rec.time;
    if (rec.time !== null && (out.oldest === null || rec.time < out.oldest)) out.oldest = rec.time;
    if (!w || (rec.time !== null && rec.time >= w.fromMs && rec.time <= w.toMs)) out.inWindow++;
    if (!isFailure(rec)) continue;
    src.failing++;
    if (parseClusterName(rec.upstreamCluster)?.direction === 'inbound') {
      out.inbound++;
      continue;
    }
    const proxy = rec.source ?? input.clientPod ?? input.source;
    const uid = proxy === input.clientPod ? proxyUid : null;
    out.failures.push(failureOf(line, rec, { read, proxy, proxyUid: uid }, history, opts));
  }
  return out;
}

/** The service and IP filters of Incidents, on a stored failure. */
export function storedMatches(f: StoredFailure, filter: RequestFilter): boolean {
  if (filter.service) {
    const c = parseClusterName(f.fields.upstreamCluster);
    if (!serviceMatches(c?.fqdn ?? c?.name ?? null, filter.service)) return false;
  }
  if (filter.ip) {
    const a = parseAddress(f.fields.upstreamHost);
    if (!a || normalizeIp(a.ip) !== normalizeIp(filter.ip)) return false;
  }
  return true;
}

/**
 * Recorded failures as the view's attributed requests, with the attribution they were recorded
 * with (not the history as it is now): the link shows what was seen.
 */
export function storedRequests(
  stored: readonly StoredFailure[],
  filter: RequestFilter,
): AttributedRequest[] {
  const out: AttributedRequest[] = [];
  for (const f of stored) {
    if (!storedMatches(f, filter)) continue;
    const a = f.attribution;
    const x = f.fields;
    out.push({
      line: f.id,
      time: x.time === null ? null : new Date(x.time).toISOString(),
      code: x.code,
      flags: x.flags,
      upstream: x.upstreamHost,
      upstreamIp: a.upstreamIp,
      pod: a.pod ? { namespace: a.pod.namespace, name: a.pod.name, uid: a.pod.uid ?? null } : null,
      owner: a.owner,
      node: null,
      state: attributedState(a.state),
      deletionStartedAt: a.deletionStartedAt,
      goneAt: a.goneAt,
      afterTerminationMs: a.afterTerminationMs,
      reason: a.reason,
      client: null,
      service: parseClusterName(x.upstreamCluster),
      source: f.source.proxy,
      timeMs: x.time,
      clientName:
        f.source.read === 'upload' && !f.source.proxy.includes('/') ? null : f.source.proxy,
    });
  }
  return out;
}
