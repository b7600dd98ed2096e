import type { ParseProblem } from '../parse-problem';

/**
 * An access-log record as meshdx reads it, whatever format the line was written in
 * (Istio's default TEXT generations, JSON, or a custom Envoy format string).
 * Envoy writes "-" for an absent value: that becomes null here.
 */
export interface AccessLogRecord {
  /** 1-based line number in the input. */
  line: number;
  /** Id of the format that read the line (see formats.ts), 'json', or 'custom'. */
  format: string;
  /** True when the line ended early (truncated) and only a prefix of the fields was read. */
  partial: boolean;
  /** Timestamp written by `kubectl logs --timestamps`, when the line carried one. */
  logTimestamp: string | null;
  /**
   * The pod that wrote the line, when a prefix before the record names it
   * (`kubectl logs --prefix`, stern). Absent otherwise.
   */
  source?: string;
  startTime: string | null;
  /** startTime in epoch milliseconds (null when absent or not a date). */
  time: number | null;
  method: string | null;
  path: string | null;
  protocol: string | null;
  /** TCP proxy line: method, path and protocol are all "-". */
  tcp: boolean;
  responseCode: number | null;
  /** Short response flags (UC, UF, ...); empty when Envoy wrote "-". */
  responseFlags: string[];
  responseCodeDetails: string | null;
  connectionTerminationDetails: string | null;
  upstreamTransportFailureReason: string | null;
  bytesReceived: number | null;
  bytesSent: number | null;
  duration: number | null;
  upstreamServiceTime: number | null;
  xForwardedFor: string | null;
  userAgent: string | null;
  requestId: string | null;
  authority: string | null;
  upstreamHost: string | null;
  upstreamCluster: string | null;
  upstreamLocalAddress: string | null;
  downstreamLocalAddress: string | null;
  downstreamRemoteAddress: string | null;
  requestedServerName: string | null;
  routeName: string | null;
  /** Operators of a custom format that have no field above, by operator text. */
  extra: Record<string, string>;
}

/** Why a line produced no record although it is not an access log: not an error. */
export type SkipReason =
  | 'empty'
  /** The proxy's own log: istio-agent/pilot-agent/istiod (text or JSON), Envoy's own lines. */
  | 'proxy-log'
  | 'proxy-log-continuation'
  /** Envoy `/stats` text (`cluster.x.upstream_rq_pending_overflow: 12`) or Prometheus text. */
  | 'stats'
  /** ztunnel's `connection opened` line: the start of a connection whose result comes later. */
  | 'connection-opened';

/** Why a line that looked like data could not be read. */
export type ErrorReason =
  | 'truncated'
  | 'binary'
  | 'invalid-json'
  | 'unknown-format'
  /** Longer than the reader's line limit: not read (see lines.ts). */
  | 'too-long';

/** A line of an access log that looked like data and could not be read. */
export interface AccessLogProblem extends ParseProblem {
  reason: ErrorReason;
  /** The start of the offending line (at most 120 characters). */
  excerpt: string;
}

export type LineResult =
  | { kind: 'record'; record: AccessLogRecord }
  | { kind: 'skipped'; line: number; reason: SkipReason }
  | { kind: 'error'; error: AccessLogProblem };

/** All fields of a record that a format can fill, by name. */
export type RecordField = Exclude<
  keyof AccessLogRecord,
  'line' | 'format' | 'partial' | 'logTimestamp' | 'time' | 'tcp' | 'extra' | 'source'
>;

export function emptyRecord(line: number, format: string): AccessLogRecord {
  return {
    line,
    format,
    partial: false,
    logTimestamp: null,
    startTime: null,
    time: null,
    method: null,
    path: null,
    protocol: null,
    tcp: false,
    responseCode: null,
    responseFlags: [],
    responseCodeDetails: null,
    connectionTerminationDetails: null,
    upstreamTransportFailureReason: null,
    bytesReceived: null,
    bytesSent: null,
    duration: null,
    upstreamServiceTime: null,
    xForwardedFor: null,
    userAgent: null,
    requestId: null,
    authority: null,
    upstreamHost: null,
    upstreamCluster: null,
    upstreamLocalAddress: null,
    downstreamLocalAddress: null,
    downstreamRemoteAddress: null,
    requestedServerName: null,
    routeName: null,
    extra: {},
  };
}
