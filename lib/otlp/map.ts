/**
 * OTLP log records to access-log records. Envoy's OpenTelemetry access logger sends one
 * LogRecord per request: `time_unix_nano` is the request's start, the body is the formatted
 * access-log line (Istio's default TEXT format unless the provider's `logFormat.text` says
 * otherwise) and the attributes are the provider's `logFormat.labels`. A body that is a kvlist
 * (a Collector that parsed the line into fields) is read like Istio's JSON encoding; labels
 * that name access-log fields fill what the body left empty. A record that is not an access
 * log is a problem with its index and the reason, never dropped silently.
 */
import { recordFromJson } from '../accesslog/json';
import type { LineParser } from '../accesslog/parser';
import type { AccessLogRecord, RecordField } from '../accesslog/types';
import type { PodRef } from '../refs/pod-ref';
import { podFromAttributes } from './source';
import type { OtlpLogRecord, OtlpLogsRequest, OtlpLogsSource } from './types';
import { anyValueToJson, attributesToObject, unixNanoToMs } from './values';

export interface OtlpAccessEntry {
  /** The record as received: the body line, or the kvlist body as JSON. */
  raw: string;
  record: AccessLogRecord;
  /** The sending proxy, when the record's attributes name it. */
  pod: PodRef | null;
}

export interface OtlpRecordProblem {
  /** Position of the record in the request (0-based, across resources and scopes). */
  index: number;
  reason: string;
  /** The start of the body (at most 120 characters). */
  excerpt: string;
}

export interface MappedLogs {
  /** Log records in the request. */
  received: number;
  entries: OtlpAccessEntry[];
  problems: OtlpRecordProblem[];
}

const EXCERPT = 120;

/** Fields a label may fill when the body left them empty. */
const FILLABLE: readonly RecordField[] = [
  'upstreamHost',
  'upstreamCluster',
  'downstreamRemoteAddress',
  'downstreamLocalAddress',
  'authority',
  'requestId',
  'routeName',
  'responseCodeDetails',
];

/** Istio JSON keys of the fields above (and of the code, flags and time). */
const LABEL_KEYS: ReadonlySet<string> = new Set([
  'upstream_host',
  'upstream_cluster',
  'downstream_remote_address',
  'downstream_local_address',
  'authority',
  'request_id',
  'route_name',
  'response_code_details',
  'response_code',
  'response_flags',
  'start_time',
]);

function fillFromLabels(record: AccessLogRecord, labels: Record<string, unknown>): void {
  let any = false;
  for (const k in labels) if (LABEL_KEYS.has(k)) any = true;
  if (!any) return;
  const fromLabels = recordFromJson(labels, record.line);
  for (const f of FILLABLE) if (record[f] === null) (record[f] as unknown) = fromLabels[f];
  if (record.responseCode === null) record.responseCode = fromLabels.responseCode;
  if (record.responseFlags.length === 0) record.responseFlags = fromLabels.responseFlags;
  if (record.time === null && fromLabels.time !== null) {
    record.time = fromLabels.time;
    record.startTime = fromLabels.startTime;
  }
}

function mapOne(
  lr: OtlpLogRecord,
  index: number,
  resource: Record<string, unknown>,
  parser: LineParser,
): OtlpAccessEntry | OtlpRecordProblem {
  const labels = attributesToObject(lr.attributes);
  const body = anyValueToJson(lr.body);
  let raw: string;
  let record: AccessLogRecord;
  if (typeof body === 'string') {
    // the line without its newline, as a slice of the body (no copy of the line)
    const cut = body.endsWith('\r\n') ? 2 : body.endsWith('\n') ? 1 : 0;
    raw = cut ? body.slice(0, body.length - cut) : body;
    const res = parser.push(raw);
    if (res.kind !== 'record') {
      const reason =
        res.kind === 'error'
          ? `body is not an access-log line (${res.error.reason}: ${res.error.message})`
          : `body is not an access-log line (${res.reason})`;
      return { index, reason, excerpt: raw.slice(0, EXCERPT) };
    }
    record = res.record;
  } else if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    raw = JSON.stringify(body);
    record = recordFromJson(body as Record<string, unknown>, index + 1);
  } else if (Object.keys(labels).length > 0 && body === null) {
    raw = JSON.stringify(labels);
    record = recordFromJson(labels, index + 1);
  } else {
    const text = body === null ? '' : JSON.stringify(body);
    return {
      index,
      reason:
        body === null
          ? 'record has no body and no attributes'
          : 'body is neither a line nor a kvlist',
      excerpt: text.slice(0, EXCERPT),
    };
  }
  fillFromLabels(record, labels);
  if (record.time === null) {
    const t = unixNanoToMs(lr.timeUnixNano);
    if (t !== null) {
      record.time = t;
      record.startTime = new Date(t).toISOString();
    }
  }
  if (
    record.responseCode === null &&
    record.responseFlags.length === 0 &&
    record.upstreamHost === null
  )
    return {
      index,
      reason: 'no response code, flags or upstream host: not an access-log record',
      excerpt: raw.slice(0, EXCERPT),
    };
  return { raw, record, pod: podFromAttributes(labels, resource) };
}

/**
 * Every log record of the request in order, mapped or named as a problem, one at a time (a
 * receiver stores each before mapping the next: nothing of a large request is held at once).
 */
export function* eachLogRecord(
  req: OtlpLogsSource,
  parser: LineParser,
): Generator<OtlpAccessEntry | OtlpRecordProblem> {
  let index = 0;
  for (const rl of req.resourceLogs ?? []) {
    const resource = attributesToObject(rl.resource?.attributes);
    for (const sl of rl.scopeLogs ?? [])
      for (const lr of sl.logRecords ?? []) yield mapOne(lr, index++, resource, parser);
  }
}

/** Every log record of the request, mapped or named as a problem. */
export function mapLogsRequest(req: OtlpLogsRequest, parser: LineParser): MappedLogs {
  const out: MappedLogs = { received: 0, entries: [], problems: [] };
  for (const m of eachLogRecord(req, parser)) {
    out.received++;
    if ('record' in m) out.entries.push(m);
    else out.problems.push(m);
  }
  return out;
}

/** Counts records without mapping them (to refuse a request before reading it). */
export function countLogRecords(req: OtlpLogsRequest): number {
  let n = 0;
  for (const rl of req.resourceLogs ?? [])
    for (const sl of rl.scopeLogs ?? []) n += sl.logRecords?.length ?? 0;
  return n;
}
