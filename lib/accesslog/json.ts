import { emptyRecord, type AccessLogRecord, type RecordField } from './types';
import { parseResponseFlags } from './flags';
import { toEpochMs } from './operators';
import { isZtunnelJson } from './ztunnel';

/** Istio's JSON access-log keys (accessLogEncoding: JSON) and the record field each fills. */
const JSON_KEYS: Record<string, RecordField> = {
  start_time: 'startTime',
  method: 'method',
  path: 'path',
  protocol: 'protocol',
  response_code: 'responseCode',
  response_flags: 'responseFlags',
  response_code_details: 'responseCodeDetails',
  connection_termination_details: 'connectionTerminationDetails',
  upstream_transport_failure_reason: 'upstreamTransportFailureReason',
  bytes_received: 'bytesReceived',
  bytes_sent: 'bytesSent',
  duration: 'duration',
  upstream_service_time: 'upstreamServiceTime',
  x_forwarded_for: 'xForwardedFor',
  user_agent: 'userAgent',
  request_id: 'requestId',
  authority: 'authority',
  upstream_host: 'upstreamHost',
  upstream_cluster: 'upstreamCluster',
  upstream_local_address: 'upstreamLocalAddress',
  downstream_local_address: 'downstreamLocalAddress',
  downstream_remote_address: 'downstreamRemoteAddress',
  requested_server_name: 'requestedServerName',
  route_name: 'routeName',
};

const NUMERIC: ReadonlySet<RecordField> = new Set<RecordField>([
  'responseCode',
  'bytesReceived',
  'bytesSent',
  'duration',
  'upstreamServiceTime',
]);

export type JsonLineKind = 'access-log' | 'ztunnel' | 'proxy-log' | 'other';

/** Keys only an access-log entry has: a structured log line that has one is no proxy log. */
const DEFINITE = ['start_time', 'response_code', 'upstream_host', 'response_flags'];

/**
 * What a parsed JSON object is: an Envoy access-log entry, a ztunnel access log (scope
 * "access" with src/dst fields), a proxy's own structured log (istio-agent, pilot-agent,
 * istiod and ztunnel write `{"level","time","scope","msg"|"message"}`), or neither.
 */
export function classifyJson(value: unknown): JsonLineKind {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'other';
  const obj = value as Record<string, unknown>;
  if (isZtunnelJson(obj)) return 'ztunnel';
  const keys = Object.keys(obj);
  const structuredLog = 'level' in obj && ('msg' in obj || 'message' in obj);
  if (structuredLog && !DEFINITE.some((k) => k in obj)) return 'proxy-log';
  if (keys.some((k) => k in JSON_KEYS && k !== 'path')) return 'access-log';
  return 'other';
}

/**
 * Builds a record from a JSON access-log object. Numbers may be numbers or strings ("503"),
 * absent values null, "-" or missing. Unknown keys go to `extra` as text.
 */
export function recordFromJson(value: Record<string, unknown>, lineNo: number): AccessLogRecord {
  const record = emptyRecord(lineNo, 'json');
  for (const [key, raw] of Object.entries(value)) {
    const field = JSON_KEYS[key];
    if (!field) {
      if (raw !== null && raw !== undefined)
        record.extra[key] = typeof raw === 'string' ? raw : JSON.stringify(raw);
      continue;
    }
    const text =
      raw === null || raw === undefined ? null : typeof raw === 'string' ? raw : String(raw);
    if (text === null || text === '-' || text === '') continue;
    if (field === 'responseFlags') {
      record.responseFlags = parseResponseFlags(text)?.flags ?? text.split(',');
    } else if (NUMERIC.has(field)) {
      const n = Number(text);
      if (Number.isFinite(n)) setNumeric(record, field, n);
      else record.extra[key] = text;
    } else {
      setText(record, field, text);
    }
  }
  if (record.startTime !== null) record.time = toEpochMs(record.startTime);
  record.tcp =
    record.method === null && record.protocol === null && record.path === null && 'method' in value;
  return record;
}

function setNumeric(record: AccessLogRecord, field: RecordField, n: number): void {
  if (field === 'responseCode') record.responseCode = n;
  else if (field === 'bytesReceived') record.bytesReceived = n;
  else if (field === 'bytesSent') record.bytesSent = n;
  else if (field === 'duration') record.duration = n;
  else if (field === 'upstreamServiceTime') record.upstreamServiceTime = n;
}

function setText(record: AccessLogRecord, field: RecordField, text: string): void {
  switch (field) {
    case 'startTime':
    case 'method':
    case 'path':
    case 'protocol':
    case 'responseCodeDetails':
    case 'connectionTerminationDetails':
    case 'upstreamTransportFailureReason':
    case 'xForwardedFor':
    case 'userAgent':
    case 'requestId':
    case 'authority':
    case 'upstreamHost':
    case 'upstreamCluster':
    case 'upstreamLocalAddress':
    case 'downstreamLocalAddress':
    case 'downstreamRemoteAddress':
    case 'requestedServerName':
    case 'routeName':
      record[field] = text;
      break;
    default:
      break;
  }
}
