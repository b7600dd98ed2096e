/**
 * Attribution: a request mapped to the pod that held its upstream IP at the request's time. This
 * module is the one place that does it, for every caller (the Incidents view, the live tail, the
 * recorded failures, the OTLP receiver, `meshdx attribute` and its --json report): one result
 * (Attribution), one state vocabulary (the lookup's HolderState, as the CLI and the view models
 * print it), one reason text per case, one default gap tolerance. Only this module asks an
 * IpHistory who held an upstream IP (lookupIp, readHolder).
 */
import { normalizeIp, parseAddress } from '../accesslog/address';
import { parseClusterName, type ClusterRef } from '../refs/cluster-name';
import type { AccessLogRecord, RecordField } from '../accesslog/types';
import { IntervalTable } from './interval-table';
import type { IpHistory } from './ip-history';
import { DEFAULT_GAP_TOLERANCE_MS } from './lookup';
import type { HolderState, IpLookup } from './types';

export interface AttributedPod {
  namespace: string;
  name: string;
  uid: string | null;
}

/** One request mapped to the pod that held its upstream IP at the request's time. */
export interface Attribution {
  line: number;
  time: string | null;
  code: number | null;
  flags: string[];
  /** Upstream host as logged (ip:port). */
  upstream: string | null;
  upstreamIp: string | null;
  pod: AttributedPod | null;
  owner: { kind: string; name: string } | null;
  node: string | null;
  state: HolderState;
  /** When the holder's deletion started (delete requested), if it had. */
  deletionStartedAt: number | null;
  /** When the holder left the API, if it had. */
  goneAt: number | null;
  /** Request time minus the holder's deletion start. */
  afterTerminationMs: number | null;
  reason: string;
  client: { address: string; pod: AttributedPod | null; state: HolderState } | null;
  service: ClusterRef | null;
}

/** What attribution reads of an access-log record (a failing record crosses threads as this). */
export type AttributionInput = Pick<
  AccessLogRecord,
  'line' | 'time' | (typeof ATTRIBUTION_FIELDS)[number]
>;

/** The fields of a log line that attribution reads (with its line number and time). */
export const ATTRIBUTION_FIELDS = [
  'startTime',
  'responseCode',
  'responseFlags',
  'upstreamHost',
  'upstreamCluster',
  'downstreamRemoteAddress',
] as const satisfies readonly RecordField[];

export interface AttributeOptions {
  /**
   * How long after its last holder was gone a free IP is still blamed on it (default
   * DEFAULT_GAP_TOLERANCE_MS).
   */
  gapToleranceMs?: number;
}

/** The normalised IP of a record's upstream host, or null when it has none. */
export function upstreamIpOf(record: Pick<AttributionInput, 'upstreamHost'>): string | null {
  const upstream = parseAddress(record.upstreamHost);
  return upstream ? normalizeIp(upstream.ip) : null;
}

/**
 * Who held `ip` at `time`: the lookup every attribution makes (the default tolerance when none
 * is given).
 */
export function lookupIp(
  history: IpHistory,
  ip: string,
  time: number,
  gapToleranceMs: number | undefined,
): IpLookup {
  return history.at(ip, time, gapToleranceMs ?? DEFAULT_GAP_TOLERANCE_MS);
}

/** Why a record without a lookup (no upstream IP, or no time) is attributed to nobody. */
function unattributableReason(upstreamIp: string | null, host: string | null): string {
  if (upstreamIp === null)
    return host === null
      ? 'no upstream host in the log line (request never reached a pod)'
      : `upstream "${host}" is not an IP address`;
  return 'request has no time (its line has no start time): attribution needs one, pod IPs are reused';
}

/**
 * Whether an attribution was made without a lookup: its record has no upstream IP or no time
 * (its state is then `unknown`, and its reason says which). `time` is the record's (epoch ms).
 */
export function unattributable(a: Pick<Attribution, 'upstreamIp'>, time: number | null): boolean {
  return a.upstreamIp === null || time === null;
}

/** The attribution of one record: who held its upstream IP (and its client's) at its time. */
export function attributeRecord(
  record: AttributionInput,
  history: IpHistory,
  options: AttributeOptions = {},
): Attribution {
  const upstreamIp = upstreamIpOf(record);
  const time = record.time;
  const found =
    upstreamIp !== null && time !== null
      ? lookupIp(history, upstreamIp, time, options.gapToleranceMs)
      : null;
  const h = found?.holder ?? null;
  // the reason text and the client's lookup are made only when read: the --json report of a
  // long log prints neither, and this runs for every failing request
  const host = record.upstreamHost;
  const remote = record.downstreamRemoteAddress;
  let client: Attribution['client'] | undefined;
  return {
    line: record.line,
    time: record.startTime,
    code: record.responseCode,
    flags: record.responseFlags,
    upstream: host,
    upstreamIp,
    pod: h ? { namespace: h.namespace, name: h.name, uid: h.uid } : null,
    owner: h?.owner ?? null,
    node: h?.node ?? null,
    state: found?.state ?? 'unknown',
    deletionStartedAt: h?.deletionStartedAt ?? null,
    goneAt: h?.goneAt ?? null,
    afterTerminationMs: found?.afterTerminationMs ?? null,
    get reason() {
      return found ? found.reason : unattributableReason(upstreamIp, host);
    },
    get client() {
      if (client === undefined) client = clientOf(remote, time, history, options.gapToleranceMs);
      return client;
    },
    service: parseClusterName(record.upstreamCluster),
  };
}

/**
 * Where readHolder reports what it found, so that nothing is made for the answer itself: a
 * long --json report reads the state and the holder of tens of thousands of requests.
 */
export interface HolderReader<T> {
  /** No lookup: no upstream IP, or no time (an `unknown` attribution, see unattributable). */
  unattributable(): T;
  /**
   * From a table history: the holder's row (-1 when the state names none) and the state, read
   * from its columns without an object per holder.
   */
  row(
    table: IntervalTable,
    holderRow: number,
    state: HolderState,
    afterTerminationMs: number | null,
  ): T;
  /** From any other history: the lookup. */
  lookup(found: IpLookup): T;
}

/**
 * attributeRecord's state, afterTerminationMs and pod from the upstream IP (normalised, as
 * upstreamIpOf gives it) and the time alone, told to `reader`: the same lookup, for a caller
 * that does not hold the record (the --json report finishes items the scan threads made).
 */
export function readHolder<T>(
  history: IpHistory,
  ip: string | null,
  time: number | null,
  gapToleranceMs: number | undefined,
  reader: HolderReader<T>,
): T {
  if (ip === null || time === null) return reader.unattributable();
  if (history instanceof IntervalTable) {
    const at = history.locateRow(ip, time, gapToleranceMs ?? DEFAULT_GAP_TOLERANCE_MS);
    const row = at.index >= 0 && at.state !== 'unknown' ? at.index : -1;
    return reader.row(history, row, at.state, at.afterTerminationMs);
  }
  return reader.lookup(lookupIp(history, ip, time, gapToleranceMs));
}

function clientOf(
  remote: string | null,
  time: number | null,
  history: IpHistory,
  gapToleranceMs: number | undefined,
): Attribution['client'] {
  const addr = parseAddress(remote);
  if (!addr || remote === null) return null;
  if (time === null) return { address: remote, pod: null, state: 'unknown' };
  const found = lookupIp(history, normalizeIp(addr.ip), time, gapToleranceMs);
  const h = found.holder;
  return {
    address: remote,
    pod: h ? { namespace: h.namespace, name: h.name, uid: h.uid } : null,
    state: found.state,
  };
}
