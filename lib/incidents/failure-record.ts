import type { AccessLogRecord } from '../accesslog/types';
import { lookupUpstream, type AttributeOptions } from '../ledger/attribution';
import type { IpHistory } from '../ledger/ip-history';
import type { HolderState } from '../ledger/types';
import type {
  AttributedState,
  FailureAttribution,
  FailureFields,
  FailureInput,
  FailureSource,
} from './failure-store';

const STATE_OF: Record<HolderState, AttributedState> = {
  live: 'running',
  terminating: 'terminating',
  terminated: 'gone',
  unknown: 'unknown',
};

/** The fields of a parsed access-log record that a stored failure keeps. */
export function failureFields(r: AccessLogRecord): FailureFields {
  return {
    time: r.time,
    code: r.responseCode,
    flags: [...r.responseFlags],
    method: r.method,
    authority: r.authority,
    path: r.path,
    durationMs: r.duration,
    upstreamHost: r.upstreamHost,
    upstreamCluster: r.upstreamCluster,
    downstreamRemote: r.downstreamRemoteAddress,
    requestId: r.requestId,
    details: r.responseCodeDetails,
  };
}

/**
 * Who held the record's upstream IP at its time, as `history` knows it now. A record without
 * an upstream IP or a time is `unattributable` (kept, with the reason).
 */
export function attributeFailure(
  r: AccessLogRecord,
  history: IpHistory,
  options: AttributeOptions = {},
): FailureAttribution {
  const { upstreamIp, found } = lookupUpstream(r, history, options);
  if (!found) {
    return {
      upstreamIp,
      pod: null,
      owner: null,
      state: 'unattributable',
      deletionStartedAt: null,
      goneAt: null,
      afterTerminationMs: null,
      reason:
        upstreamIp === null
          ? r.upstreamHost === null
            ? 'no upstream host in the log line (the request never reached a pod)'
            : `upstream "${r.upstreamHost}" is not an IP address`
          : 'the request has no time: attribution needs one, pod IPs are reused',
    };
  }
  const h = found.holder;
  return {
    upstreamIp,
    pod: h ? { namespace: h.namespace, name: h.name, uid: h.uid } : null,
    owner: h?.owner ?? null,
    state: STATE_OF[found.state],
    deletionStartedAt: h?.deletionStartedAt ?? null,
    goneAt: h?.goneAt ?? null,
    afterTerminationMs: found.afterTerminationMs,
    reason: found.reason,
  };
}

/**
 * One failing request ready for FailureStore.record: the raw line as read, where it came from,
 * its parsed fields and its attribution now.
 */
export function failureOf(
  raw: string,
  record: AccessLogRecord,
  source: FailureSource,
  history: IpHistory,
  options: AttributeOptions = {},
): FailureInput {
  return {
    raw,
    source,
    fields: failureFields(record),
    attribution: attributeFailure(record, history, options),
  };
}
