import type { AccessLogRecord } from '../accesslog/types';
import { normalizeIp, parseAddress } from '../accesslog/address';
import { parseClusterName, type ClusterRef } from '../accesslog/cluster';
import type { HolderState, IpLookup } from './types';

export interface PodRef {
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
  pod: PodRef | null;
  owner: { kind: string; name: string } | null;
  node: string | null;
  state: HolderState;
  afterTerminationMs: number | null;
  reason: string;
  client: { address: string; pod: PodRef | null; state: HolderState } | null;
  service: ClusterRef | null;
}

/** What attribution needs from a ledger: IpLedger, or a store-backed one later. */
export interface IpHistory {
  at(ip: string, time: number, gapToleranceMs?: number): IpLookup;
}

export interface AttributeOptions {
  /** How long after its last holder was gone a free IP is still blamed on it (default 5 min). */
  gapToleranceMs?: number;
}

export function attributeRecord(
  record: AccessLogRecord,
  history: IpHistory,
  options: AttributeOptions = {},
): Attribution {
  const upstream = parseAddress(record.upstreamHost);
  const upstreamIp = upstream ? normalizeIp(upstream.ip) : null;
  const client = clientOf(record, history, options);
  let found: IpLookup | null = null;
  let reason: string;
  if (upstreamIp === null)
    reason =
      record.upstreamHost === null
        ? 'no upstream host in the log line (request never reached a pod)'
        : `upstream "${record.upstreamHost}" is not an IP address`;
  else if (record.time === null) reason = 'request has no usable start time';
  else {
    found = history.at(upstreamIp, record.time, options.gapToleranceMs);
    reason = found.reason;
  }
  const h = found?.holder ?? null;
  // one object literal with every field (no spreads): this runs for every failing request
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
    reason,
    client,
    service: parseClusterName(record.upstreamCluster),
  };
}

function clientOf(
  record: AccessLogRecord,
  history: IpHistory,
  options: AttributeOptions,
): Attribution['client'] {
  const addr = parseAddress(record.downstreamRemoteAddress);
  if (!addr || record.downstreamRemoteAddress === null) return null;
  if (record.time === null)
    return { address: record.downstreamRemoteAddress, pod: null, state: 'unknown' };
  const found = history.at(normalizeIp(addr.ip), record.time, options.gapToleranceMs);
  const h = found.holder;
  return {
    address: record.downstreamRemoteAddress,
    pod: h ? { namespace: h.namespace, name: h.name, uid: h.uid } : null,
    state: found.state,
  };
}
