import { positionAt, type ParseProblem } from '../parse-problem';
import { emptyRecord, type AccessLogRecord, type RecordField } from './types';
import { assignValue, operatorSpec, valueFitsAt, type OperatorSpec } from './operators';

/**
 * An Envoy format string compiled into literals and operators:
 * line = literals[0] op[0] literals[1] op[1] ... op[n-1] literals[n].
 * Matching is a single left-to-right pass: each operator's value runs up to the next
 * occurrence of the literal that follows it, and is checked against the operator's kind.
 */
export interface CompiledFormat {
  id: string;
  source: string;
  literals: string[];
  operators: OperatorSpec[];
  /** Text after the last literal is allowed (a prefix-only format). */
  allowTrailing: boolean;
}

/** Why a spot of an Envoy format string is not read the way its author may expect. */
export type FormatProblemReason =
  'adjacent-operators' | 'stray-percent' | 'no-operators' | 'unknown-operator';

/**
 * Envoy's command operators (the substitution formatter's, as its access-log documentation lists
 * them): a name outside these is a typo or another tool's, and Envoy itself refuses the format.
 */
const ENVOY_OPERATORS: ReadonlySet<string> = new Set(
  [
    'START_TIME START_TIME_LOCAL EMIT_TIME EMIT_TIME_LOCAL SYSTEM_TIME',
    'REQUEST_HEADERS_BYTES RESPONSE_HEADERS_BYTES RESPONSE_TRAILERS_BYTES',
    'BYTES_RECEIVED BYTES_SENT BYTES_RETRANSMITTED PACKETS_RETRANSMITTED',
    'UPSTREAM_WIRE_BYTES_RECEIVED UPSTREAM_WIRE_BYTES_SENT UPSTREAM_HEADER_BYTES_RECEIVED',
    'UPSTREAM_HEADER_BYTES_SENT DOWNSTREAM_WIRE_BYTES_RECEIVED DOWNSTREAM_WIRE_BYTES_SENT',
    'DOWNSTREAM_HEADER_BYTES_RECEIVED DOWNSTREAM_HEADER_BYTES_SENT',
    'PROTOCOL UPSTREAM_PROTOCOL RESPONSE_CODE RESPONSE_CODE_DETAILS CONNECTION_TERMINATION_DETAILS',
    'RESPONSE_FLAGS RESPONSE_FLAGS_LONG CUSTOM_FLAGS',
    'DURATION COMMON_DURATION REQUEST_DURATION REQUEST_TX_DURATION RESPONSE_DURATION',
    'RESPONSE_TX_DURATION DOWNSTREAM_HANDSHAKE_DURATION ROUNDTRIP_DURATION',
    'UPSTREAM_CONNECTION_POOL_READY_DURATION',
    'UPSTREAM_HOST UPSTREAM_HOST_NAME UPSTREAM_HOST_NAME_WITHOUT_PORT UPSTREAM_CLUSTER',
    'UPSTREAM_CLUSTER_RAW UPSTREAM_LOCAL_ADDRESS UPSTREAM_LOCAL_ADDRESS_WITHOUT_PORT',
    'UPSTREAM_LOCAL_PORT UPSTREAM_REMOTE_ADDRESS UPSTREAM_REMOTE_ADDRESS_WITHOUT_PORT',
    'UPSTREAM_REMOTE_PORT UPSTREAM_REQUEST_ATTEMPT_COUNT UPSTREAM_TRANSPORT_FAILURE_REASON',
    'UPSTREAM_CONNECTION_ID UPSTREAM_DETECTED_CLOSE_TYPE UPSTREAM_LOCAL_CLOSE_REASON',
    'UPSTREAM_TLS_CIPHER UPSTREAM_TLS_VERSION UPSTREAM_TLS_SESSION_ID UPSTREAM_PEER_ISSUER',
    'UPSTREAM_PEER_CERT UPSTREAM_PEER_SUBJECT UPSTREAM_PEER_URI_SAN UPSTREAM_PEER_DNS_SAN',
    'UPSTREAM_PEER_IP_SAN UPSTREAM_LOCAL_URI_SAN UPSTREAM_LOCAL_DNS_SAN UPSTREAM_LOCAL_IP_SAN',
    'UPSTREAM_LOCAL_SUBJECT UPSTREAM_PEER_CERT_V_START UPSTREAM_PEER_CERT_V_END',
    'UPSTREAM_FILTER_STATE UPSTREAM_METADATA',
    'DOWNSTREAM_REMOTE_ADDRESS DOWNSTREAM_REMOTE_ADDRESS_WITHOUT_PORT DOWNSTREAM_REMOTE_PORT',
    'DOWNSTREAM_DIRECT_REMOTE_ADDRESS DOWNSTREAM_DIRECT_REMOTE_ADDRESS_WITHOUT_PORT',
    'DOWNSTREAM_DIRECT_REMOTE_PORT DOWNSTREAM_LOCAL_ADDRESS DOWNSTREAM_LOCAL_ADDRESS_WITHOUT_PORT',
    'DOWNSTREAM_LOCAL_PORT DOWNSTREAM_DIRECT_LOCAL_ADDRESS DOWNSTREAM_DIRECT_LOCAL_ADDRESS_WITHOUT_PORT',
    'DOWNSTREAM_DIRECT_LOCAL_PORT DOWNSTREAM_LOCAL_ADDRESS_ENDPOINT_ID DOWNSTREAM_CONNECTION_ID',
    'DOWNSTREAM_LOCAL_URI_SAN DOWNSTREAM_PEER_URI_SAN DOWNSTREAM_LOCAL_DNS_SAN',
    'DOWNSTREAM_PEER_DNS_SAN DOWNSTREAM_LOCAL_IP_SAN DOWNSTREAM_PEER_IP_SAN',
    'DOWNSTREAM_LOCAL_EMAIL_SAN DOWNSTREAM_PEER_EMAIL_SAN DOWNSTREAM_LOCAL_OTHERNAME_SAN',
    'DOWNSTREAM_PEER_OTHERNAME_SAN DOWNSTREAM_LOCAL_SUBJECT DOWNSTREAM_PEER_SUBJECT',
    'DOWNSTREAM_PEER_ISSUER DOWNSTREAM_TLS_SESSION_ID DOWNSTREAM_TLS_CIPHER DOWNSTREAM_TLS_VERSION',
    'DOWNSTREAM_PEER_FINGERPRINT_256 DOWNSTREAM_PEER_FINGERPRINT_1 DOWNSTREAM_PEER_SERIAL',
    'DOWNSTREAM_PEER_CHAIN_FINGERPRINTS_256 DOWNSTREAM_PEER_CHAIN_FINGERPRINTS_1',
    'DOWNSTREAM_PEER_CHAIN_SERIALS DOWNSTREAM_PEER_CERT DOWNSTREAM_PEER_CERT_V_START',
    'DOWNSTREAM_PEER_CERT_V_END DOWNSTREAM_TRANSPORT_FAILURE_REASON DOWNSTREAM_LOCAL_CLOSE_REASON',
    'DOWNSTREAM_DETECTED_CLOSE_TYPE TLS_JA3_FINGERPRINT TLS_JA4_FINGERPRINT',
    'REQ RESP TRAILER REQUEST_HEADER RESPONSE_HEADER RESPONSE_TRAILER REQ_WITHOUT_QUERY',
    'QUERY_PARAM PATH DYNAMIC_METADATA CLUSTER_METADATA METADATA FILTER_STATE CEL',
    'HOSTNAME LOCAL_REPLY_BODY FILTER_CHAIN_NAME VIRTUAL_CLUSTER_NAME ROUTE_NAME UNIQUE_ID',
    'REQUESTED_SERVER_NAME GRPC_STATUS GRPC_STATUS_NUMBER ACCESS_LOG_TYPE CONNECTION_ID',
    'STREAM_ID ENVIRONMENT TRACE_ID SPAN_ID',
  ].flatMap((line) => line.split(' ')),
);

/** A problem of a format string: line and column in it (1-based), and what is read instead. */
export interface FormatProblem extends ParseProblem {
  reason: FormatProblemReason;
}

export interface CompileResult {
  format: CompiledFormat;
  problems: FormatProblem[];
}

const OPERATOR = /^%([A-Z][A-Z0-9_]*)(?:\(([^)]*)\))?(?::\d+)?%/;

/** Compiles an Envoy format string. Never throws: odd spots are reported in `problems`. */
export function compileFormat(source: string, id = 'custom', allowTrailing = false): CompileResult {
  const text = source.replace(/\r?\n$/, '');
  const literals: string[] = [];
  const operators: OperatorSpec[] = [];
  const problems: FormatProblem[] = [];
  let literal = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '%') {
      if (text[i + 1] === '%') {
        literal += '%';
        i += 2;
        continue;
      }
      const m = OPERATOR.exec(text.slice(i));
      if (m) {
        if (operators.length > 0 && literal === '') {
          problems.push({
            ...positionAt(text, i),
            reason: 'adjacent-operators',
            message: `operator ${m[0]} follows another with no text between: values split at the first space`,
          });
        }
        if (!ENVOY_OPERATORS.has(m[1] ?? ''))
          problems.push({
            ...positionAt(text, i),
            reason: 'unknown-operator',
            message: `${m[0]} is not an Envoy command operator meshdx knows (a typo, or one newer than this list): its field is read as text`,
          });
        literals.push(literal);
        literal = '';
        operators.push(operatorSpec(m[0], m[1] ?? '', m[2] ?? null));
        i += m[0].length;
        continue;
      }
      problems.push({
        ...positionAt(text, i),
        reason: 'stray-percent',
        message: "'%' does not start an operator: read as text",
      });
    }
    literal += ch;
    i++;
  }
  literals.push(literal);
  if (operators.length === 0)
    problems.push({ line: 0, reason: 'no-operators', message: 'format has no operators' });
  return { format: { id, source, literals, operators, allowTrailing }, problems };
}

/**
 * Why a format cannot read a log at all, or null: it names no operator, or none that Envoy has
 * (`%BOGUS%`: a typo or another tool's format). A format that also names known operators is read,
 * its unknown ones as text with their problem reported: Envoy adds operators, and a newer proxy's
 * format must not be refused for one this list lacks.
 */
export function unreadableFormat(result: CompileResult): FormatProblem[] | null {
  const { format, problems } = result;
  if (format.operators.length === 0) return problems.filter((p) => p.reason === 'no-operators');
  const unknown = problems.filter((p) => p.reason === 'unknown-operator');
  return unknown.length === format.operators.length ? unknown : null;
}

export type MatchStatus = 'full' | 'partial' | 'mismatch';

export interface MatchResult {
  status: MatchStatus;
  /** Operators whose values were read: the first `matched`. */
  matched: number;
  /** The line matched. */
  line: string;
  /**
   * Where the values are: value k is line.slice(bounds[2k], bounds[2k + 1]). Positions, not
   * strings: a record is made of a few values of most lines a scan matches (see buildRecord).
   */
  bounds: number[];
}

/** Value k of a match. */
export function matchValue(m: MatchResult, k: number): string {
  return m.line.slice(m.bounds[2 * k], m.bounds[2 * k + 1]);
}

/** Matches one line (no line terminator) against a compiled format. */
export function matchFormat(format: CompiledFormat, line: string): MatchResult {
  const { literals, operators } = format;
  // made at its full size: grown entry by entry it would be copied five times per line
  const bounds = new Array<number>(operators.length * 2);
  const first = literals[0] ?? '';
  if (!line.startsWith(first)) {
    const ranOut = line.length < first.length && first.startsWith(line);
    return { status: ranOut ? 'partial' : 'mismatch', matched: 0, line, bounds };
  }
  let p = first.length;
  for (let k = 0; k < operators.length; k++) {
    const spec = operators[k] as OperatorSpec;
    const lit = literals[k + 1] ?? '';
    const last = k === operators.length - 1;
    const a = p;
    let b: number;
    if (lit === '' && last) {
      b = line.length;
      p = b;
    } else {
      const sep = lit === '' ? ' ' : lit;
      const idx = line.indexOf(sep, p);
      if (idx < 0) return ranOut(line, p, sep, spec, bounds, k);
      b = idx;
      p = lit === '' ? idx : idx + sep.length;
    }
    if (!valueFitsAt(spec.kind, line, a, b))
      return { status: 'mismatch', matched: k, line, bounds };
    bounds[2 * k] = a;
    bounds[2 * k + 1] = b;
  }
  if (p !== line.length && !format.allowTrailing) {
    return { status: 'mismatch', matched: operators.length, line, bounds };
  }
  return { status: 'full', matched: operators.length, line, bounds };
}

/**
 * The separator after operator k is missing: the line was cut. If it ends with the
 * separator's visible part (`"` of `" `), the value before it is whole and is kept.
 */
function ranOut(
  line: string,
  p: number,
  sep: string,
  spec: OperatorSpec,
  bounds: number[],
  k: number,
): MatchResult {
  const visible = sep.trimEnd();
  if (visible !== '' && line.endsWith(visible) && line.length - visible.length >= p) {
    const b = line.length - visible.length;
    if (valueFitsAt(spec.kind, line, p, b)) {
      bounds[2 * k] = p;
      bounds[2 * k + 1] = b;
      return { status: 'partial', matched: k + 1, line, bounds };
    }
  }
  return { status: 'partial', matched: k, line, bounds };
}

/** The fields a scan wants, and which operators of each format fill them (found once per format). */
export class FieldFilter {
  private readonly masks = new Map<CompiledFormat, Uint8Array>();
  constructor(private readonly fields: ReadonlySet<RecordField>) {}

  /** 1 for each operator of the format whose field is wanted. */
  mask(format: CompiledFormat): Uint8Array {
    let m = this.masks.get(format);
    if (!m) {
      m = Uint8Array.from(format.operators, (op) =>
        op.field !== null && this.fields.has(op.field) ? 1 : 0,
      );
      this.masks.set(format, m);
    }
    return m;
  }
}

/**
 * Builds a record from the values of a (full or partial) match. With `only`, the fields of
 * other operators (and custom operators, kept in `extra`) are left empty: a scan that needs a
 * few fields of many lines makes just those.
 */
export function buildRecord(
  format: CompiledFormat,
  match: MatchResult,
  lineNo: number,
  only: FieldFilter | null = null,
): AccessLogRecord {
  const record = emptyRecord(lineNo, format.id);
  const mask = only === null ? null : only.mask(format);
  for (let k = 0; k < match.matched; k++) {
    if (mask !== null && mask[k] === 0) continue;
    assignValue(record, format.operators[k] as OperatorSpec, matchValue(match, k));
  }
  record.partial = match.status !== 'full';
  record.tcp = isTcp(format, match);
  return record;
}

/** A TCP proxy line writes "-" for method, path and protocol. */
function isTcp(format: CompiledFormat, match: MatchResult): boolean {
  let seen = 0;
  for (let k = 0; k < match.matched; k++) {
    const field = format.operators[k]?.field;
    if (field === 'method' || field === 'path' || field === 'protocol') {
      const a = match.bounds[2 * k] as number;
      if (match.bounds[2 * k + 1] !== a + 1 || match.line.charCodeAt(a) !== 45 /* - */)
        return false;
      seen++;
    }
  }
  return seen > 0;
}
