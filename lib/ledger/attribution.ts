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
  const base = {
    line: record.line,
    time: record.startTime,
    code: record.responseCode,
    flags: record.responseFlags,
    upstream: record.upstreamHost,
    upstreamIp: upstream ? normalizeIp(upstream.ip) : null,
    service: parseClusterName(record.upstreamCluster),
    client: clientOf(record, history, options),
  };
  if (!upstream) {
    const reason =
      record.upstreamHost === null
        ? 'no upstream host in the log line (request never reached a pod)'
        : `upstream "${record.upstreamHost}" is not an IP address`;
    return {
      ...base,
      pod: null,
      owner: null,
      node: null,
      state: 'unknown',
      afterTerminationMs: null,
      reason,
    };
  }
  if (record.time === null) {
    return {
      ...base,
      pod: null,
      owner: null,
      node: null,
      state: 'unknown',
      afterTerminationMs: null,
      reason: 'request has no usable start time',
    };
  }
  const found = history.at(normalizeIp(upstream.ip), record.time, options.gapToleranceMs);
  const h = found.holder;
  return {
    ...base,
    pod: h ? { namespace: h.namespace, name: h.name, uid: h.uid } : null,
    owner: h?.owner ?? null,
    node: h?.node ?? null,
    state: found.state,
    afterTerminationMs: found.afterTerminationMs,
    reason: found.reason,
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
