import { normalizeIp, parseAddress } from '../accesslog/address';
import { parseClusterName, type ClusterRef } from '../refs/cluster-name';
import type { AccessLogRecord, RecordField } from '../accesslog/types';
import type { IpHistory } from './ip-history';
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
  /** How long after its last holder was gone a free IP is still blamed on it (default 5 min). */
  gapToleranceMs?: number;
}

/** The normalised IP of a record's upstream host, or null when it has none. */
export function upstreamIpOf(record: Pick<AttributionInput, 'upstreamHost'>): string | null {
  const upstream = parseAddress(record.upstreamHost);
  return upstream ? normalizeIp(upstream.ip) : null;
}

/**
 * The normalised upstream IP of a record and who held it at the record's time (found is null
 * when the record has no IP upstream or no usable time).
 */
export function lookupUpstream(
  record: AttributionInput,
  history: IpHistory,
  options: AttributeOptions = {},
): { upstreamIp: string | null; found: IpLookup | null } {
  const upstreamIp = upstreamIpOf(record);
  const found =
    upstreamIp !== null && record.time !== null
      ? history.at(upstreamIp, record.time, options.gapToleranceMs)
      : null;
  return { upstreamIp, found };
}

export function attributeRecord(
  record: AttributionInput,
  history: IpHistory,
  options: AttributeOptions = {},
): Attribution {
  const { upstreamIp, found } = lookupUpstream(record, history, options);
  const h = found?.holder ?? null;
  // the reason text and the client's lookup are made only when read: the --json report of a
  // long log prints neither, and this runs for every failing request
  const host = record.upstreamHost;
  const remote = record.downstreamRemoteAddress;
  const time = record.time;
  let client: Attribution['client'] | undefined;
  return {
    line: record.line,
    time: record.startTime,
    code: record.responseCode,
    flags: record.responseFlags,
    upstream: record.upstreamHost,
    upstreamIp,
    pod: h ? { namespace: h.namespace, name: h.name, uid: h.uid } : null,
    owner: h?.owner ?? null,
    node: h?.node ?? null,
    state: found?.state ?? 'unknown',
    afterTerminationMs: found?.afterTerminationMs ?? null,
    get reason() {
      if (found) return found.reason;
      if (upstreamIp === null)
        return host === null
          ? 'no upstream host in the log line (request never reached a pod)'
          : `upstream "${host}" is not an IP address`;
      return 'request has no time (its line has no start time): attribution needs one, pod IPs are reused';
    },
    get client() {
      if (client === undefined) client = clientOf(remote, time, history, options.gapToleranceMs);
      return client;
    },
    service: parseClusterName(record.upstreamCluster),
  };
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
  const found = history.at(normalizeIp(addr.ip), time, gapToleranceMs);
  const h = found.holder;
  return {
    address: remote,
    pod: h ? { namespace: h.namespace, name: h.name, uid: h.uid } : null,
    state: found.state,
  };
}
