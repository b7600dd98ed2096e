import type { AccessLogRecord, RecordField } from './types';
import { isResponseFlags } from './flags';
import { parseTime } from '../utc-time';

/** How a value is checked while matching: a wrong kind means the line is in another format. */
export type ValueKind = 'time' | 'int' | 'flags' | 'token' | 'text';

export interface OperatorSpec {
  /** The operator as written in the format string, e.g. `%REQ(:METHOD)%`. */
  text: string;
  /** Record field it fills, or null: kept in `extra` under `text`. */
  field: RecordField | null;
  kind: ValueKind;
}

const SIMPLE: Record<string, [RecordField, ValueKind]> = {
  START_TIME: ['startTime', 'time'],
  PROTOCOL: ['protocol', 'token'],
  RESPONSE_CODE: ['responseCode', 'int'],
  RESPONSE_FLAGS: ['responseFlags', 'flags'],
  RESPONSE_CODE_DETAILS: ['responseCodeDetails', 'token'],
  CONNECTION_TERMINATION_DETAILS: ['connectionTerminationDetails', 'token'],
  UPSTREAM_TRANSPORT_FAILURE_REASON: ['upstreamTransportFailureReason', 'text'],
  BYTES_RECEIVED: ['bytesReceived', 'int'],
  BYTES_SENT: ['bytesSent', 'int'],
  DURATION: ['duration', 'int'],
  UPSTREAM_HOST: ['upstreamHost', 'token'],
  UPSTREAM_CLUSTER: ['upstreamCluster', 'token'],
  UPSTREAM_CLUSTER_RAW: ['upstreamCluster', 'token'],
  UPSTREAM_LOCAL_ADDRESS: ['upstreamLocalAddress', 'token'],
  DOWNSTREAM_LOCAL_ADDRESS: ['downstreamLocalAddress', 'token'],
  DOWNSTREAM_REMOTE_ADDRESS: ['downstreamRemoteAddress', 'token'],
  REQUESTED_SERVER_NAME: ['requestedServerName', 'token'],
  ROUTE_NAME: ['routeName', 'token'],
};

const REQUEST_HEADERS: Record<string, [RecordField, ValueKind]> = {
  ':method': ['method', 'token'],
  ':path': ['path', 'token'],
  'x-envoy-original-path?:path': ['path', 'token'],
  'x-forwarded-for': ['xForwardedFor', 'text'],
  'user-agent': ['userAgent', 'text'],
  'x-request-id': ['requestId', 'text'],
  ':authority': ['authority', 'text'],
  host: ['authority', 'text'],
};

/**
 * Maps one Envoy command operator to the record field it fills. `name` is the operator
 * name (START_TIME), `arg` what stood in parentheses (or null).
 */
export function operatorSpec(text: string, name: string, arg: string | null): OperatorSpec {
  const simple = SIMPLE[name];
  if (simple) return { text, field: simple[0], kind: simple[1] };
  if (name === 'REQ' && arg !== null) {
    const header = REQUEST_HEADERS[arg.toLowerCase()];
    if (header) return { text, field: header[0], kind: header[1] };
  }
  if (name === 'RESP' && arg !== null && arg.toLowerCase() === 'x-envoy-upstream-service-time') {
    return { text, field: 'upstreamServiceTime', kind: 'int' };
  }
  return { text, field: null, kind: 'text' };
}

/**
 * True when the value line[a, b) can be a value of this kind. Cheap: runs for every field of
 * every line, on positions rather than strings.
 */
export function valueFitsAt(kind: ValueKind, line: string, a: number, b: number): boolean {
  switch (kind) {
    case 'text':
      return true;
    case 'token':
      return b > a && !hasSpace(line, a, b);
    case 'int':
      return (b === a + 1 && line.charCodeAt(a) === 45) /* - */ || isDigits(line, a, b);
    case 'flags':
      return isResponseFlags(line, a, b);
    case 'time':
      return looksLikeTime(line, a, b);
  }
}

/** Cheap shape check (digits first, 8 to 40 long); the real parse happens once, in assignValue. */
function looksLikeTime(line: string, a: number, b: number): boolean {
  if (b - a < 8 || b - a > 40) return false;
  const c = line.charCodeAt(a);
  return c >= 48 && c <= 57;
}

function hasSpace(line: string, a: number, b: number): boolean {
  for (let i = a; i < b; i++) {
    const c = line.charCodeAt(i);
    if (c === 32 || c === 9) return true;
  }
  return false;
}

function isDigits(value: string, a = 0, b = value.length): boolean {
  if (b <= a || b - a > 15) return false;
  for (let i = a; i < b; i++) {
    const c = value.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** Epoch milliseconds from an ISO date, or from epoch seconds / milliseconds digits. */
export function toEpochMs(value: string): number | null {
  if (isDigits(value)) {
    const n = Number(value);
    return value.length >= 13 ? n : n * 1000;
  }
  const ms = parseTime(value);
  return Number.isNaN(ms) ? null : ms;
}

/** Writes one matched value into the record ("-" stays null). */
export function assignValue(record: AccessLogRecord, spec: OperatorSpec, value: string): void {
  const field = spec.field;
  if (field === null) {
    record.extra[spec.text] = value;
    return;
  }
  if (field === 'responseFlags') {
    record.responseFlags =
      value === '-' || value === '' || !isResponseFlags(value) ? [] : value.split(',');
    return;
  }
  if (value === '-' || value === '') return;
  if (spec.kind === 'int') {
    setNumber(record, field, Number(value));
    return;
  }
  setString(record, field, value);
  if (field === 'startTime') record.time = toEpochMs(value);
}

type NumberField = {
  [K in RecordField]: AccessLogRecord[K] extends number | null ? K : never;
}[RecordField];
type StringField = {
  [K in RecordField]: AccessLogRecord[K] extends string | null ? K : never;
}[RecordField];

const NUMBER_FIELDS: ReadonlySet<string> = new Set<string>([
  'responseCode',
  'bytesReceived',
  'bytesSent',
  'duration',
  'upstreamServiceTime',
]);

function setNumber(record: AccessLogRecord, field: RecordField, value: number): void {
  if (NUMBER_FIELDS.has(field)) record[field as NumberField] = value;
}

function setString(record: AccessLogRecord, field: RecordField, value: string): void {
  if (!NUMBER_FIELDS.has(field) && field !== 'responseFlags') record[field as StringField] = value;
}
