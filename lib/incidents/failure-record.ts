import type { AccessLogRecord } from '../accesslog/types';
import { attributeRecord, type AttributeOptions } from '../ledger/attribution';
import type { IpHistory } from '../ledger/ip-history';
import {
  toStoredAttribution,
  type FailureFields,
  type FailureInput,
  type FailureSource,
} from './failure-store';

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
 * One failing request ready for FailureStore.record: the raw line as read, where it came from,
 * its parsed fields and its attribution now (attributeRecord, kept in the store's words). A
 * record without an upstream IP or a time is `unattributable` (kept, with the reason).
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
    attribution: toStoredAttribution(attributeRecord(record, history, options), record.time),
  };
}
