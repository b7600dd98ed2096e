import { isFailure } from '../accesslog/failure';
import { normalizeIp, parseAddress } from '../accesslog/address';
import { parseClusterName } from '../refs/cluster-name';
import type { AccessLogRecord } from '../accesslog/types';
import { attributeRecord, type Attribution } from '../ledger/attribution';
import type { IpHistory } from '../ledger/ip-history';
import { emptyUntimed, noteUntimed, type UntimedLines } from '../ledger/untimed';
import type { LogSource } from '../api/incidents';
import { podKeyOf } from '../refs/pod-ref';
import type { IncidentLineProblem, LogInput } from './log-input';
import { logRecords, newLogSource } from './log-lines';

export interface RequestFilter {
  fromMs: number | null;
  toMs: number | null;
  /** Service FQDN or its first label (matched against the upstream cluster). */
  service: string | null;
  ip: string | null;
  /** Attribute every request, not only 5xx and flagged ones. */
  all?: boolean;
  format?: string;
  gapToleranceMs?: number;
}

export interface AttributedRequest extends Attribution {
  source: string;
  timeMs: number | null;
  /** Client pod ("ns/name"): the log's own pod, else the pod behind the downstream address. */
  clientName: string | null;
}

export interface Collected {
  requests: AttributedRequest[];
  sources: LogSource[];
  lineErrors: IncidentLineProblem[];
  /** Requests read (failing or not) whose time is in the window: the "Requests read" figure. */
  records: number;
  failing: number;
  outsideWindow: number;
  /** Failing inbound-side records (the server's own log): not attributed, counted. */
  inbound: number;
  /** Failing requests without a time (attribution needs one): counted, first lines listed. */
  untimed: UntimedLines;
}

const MAX_LINE_ERRORS = 200;

/** Parses every log, keeps the failing outbound requests that pass the filter, and attributes them. */
export function collectRequests(
  inputs: readonly LogInput[],
  history: IpHistory,
  filter: RequestFilter,
): Collected {
  const out: Collected = {
    requests: [],
    sources: [],
    lineErrors: [],
    records: 0,
    failing: 0,
    outsideWindow: 0,
    inbound: 0,
    untimed: emptyUntimed(),
  };
  for (const input of inputs) {
    const src = newLogSource(input);
    out.sources.push(src);
    for (const { record: rec } of logRecords(
      input,
      src,
      filter.format,
      out.lineErrors,
      MAX_LINE_ERRORS,
    )) {
      const inside = inWindow(rec, filter);
      // the requests read are those of the window: a log read from its start reaches past its end
      if (inside) out.records++;
      if (!filter.all && !isFailure(rec)) continue;
      src.failing++;
      out.failing++;
      if (parseClusterName(rec.upstreamCluster)?.direction === 'inbound') {
        out.inbound++;
        continue;
      }
      if (rec.time === null) noteUntimed(out.untimed, rec.line);
      if (!inside) {
        out.outsideWindow++;
        continue;
      }
      if (!matches(rec, filter)) continue;
      const a = attributeRecord(rec, history, { gapToleranceMs: filter.gapToleranceMs });
      const fromAddress = a.client?.pod ? podKeyOf(a.client.pod) : null;
      out.requests.push({
        ...a,
        source: input.source,
        timeMs: rec.time,
        clientName: input.clientPod ?? fromAddress,
      });
    }
  }
  out.requests.sort((x, y) => (x.timeMs ?? 0) - (y.timeMs ?? 0));
  return out;
}

export function inWindow(rec: AccessLogRecord, f: RequestFilter): boolean {
  if (rec.time === null) return f.fromMs === null && f.toMs === null;
  if (f.fromMs !== null && rec.time < f.fromMs) return false;
  if (f.toMs !== null && rec.time > f.toMs) return false;
  return true;
}

/** Service filter: the cluster FQDN, or its first label, or a prefix of the FQDN. */
export function serviceMatches(fqdn: string | null, wanted: string): boolean {
  if (!fqdn) return false;
  const f = fqdn.toLowerCase();
  const w = wanted.toLowerCase();
  return f === w || f.split('.')[0] === w || f.startsWith(`${w}.`);
}

/** The service and IP filters of a request. */
export function matches(rec: AccessLogRecord, f: RequestFilter): boolean {
  if (f.service) {
    const c = parseClusterName(rec.upstreamCluster);
    if (!serviceMatches(c?.fqdn ?? c?.name ?? null, f.service)) return false;
  }
  if (f.ip) {
    const a = parseAddress(rec.upstreamHost);
    if (!a || normalizeIp(a.ip) !== normalizeIp(f.ip)) return false;
  }
  return true;
}
