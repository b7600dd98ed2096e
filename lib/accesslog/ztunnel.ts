import { parseAddress } from './address';
import { toEpochMs } from './operators';
import { emptyRecord, type AccessLogRecord } from './types';

/**
 * ztunnel (ambient mode) access logs, read where Envoy's formats are read.
 *
 * FIELD NOTES (checked against istio/ztunnel src/proxy/metrics.rs and src/telemetry.rs):
 * - Text lines are `TIME\tLEVEL\tTARGET\tMESSAGE\tk=v k=v ...` (telemetry.rs IstioFormat: the
 *   head is tab-separated, the message is followed by a tab, the fields by single spaces).
 *   TARGET is `access` for access logs (they are logged with `parent: None`, so no span
 *   follows). Pasted lines have spaces for some or all tabs and may lack the time: any run
 *   of blanks separates the parts here, and the message is the words before the first `k=`.
 * - A value is written with Rust's Debug formatting when it is a string (`"outbound"`, with
 *   `\"`, `\\`, `\n`, `\t`, `\u{..}` escapes) and bare when it is a number or a Display value
 *   (`src.addr=10.12.0.8:37522`, `bytes_sent=67`); older releases wrote some strings bare.
 *   Accept both, anywhere.
 * - Messages: `connection complete` at `info` (success) or `error` with `error="..."`
 *   (connection refused, timed out, reset...); `connection failed` at `warn` (a connection
 *   denied before it could be set up, only src.addr, dst.addr, direction, error);
 *   `connection opened` at `debug` (the start of a connection: not a result, not counted).
 * - Fields (metrics.rs access_log!, in this order): src.addr, src.workload, src.namespace,
 *   src.identity, src.cluster, dst.addr, dst.hbone_addr, dst.service, dst.workload,
 *   dst.namespace, dst.identity, dst.cluster, direction ("outbound" on the
 *   client's node, "inbound" on the server's), bytes_sent, bytes_recv, duration ("2ms"),
 *   error. Absent values are left out, never written as "-".
 * - The destination pod: `dst.hbone_addr` (the inner, tunnelled target) when present; else
 *   `dst.addr` unless its port is 15008, the HBONE port, where dst.addr is the peer's ztunnel
 *   or a waypoint, not the pod. IPv6 addresses are bracketed: `[fd00::1]:15008`.
 * - The line is written when the connection ends: the time in the head is its end. The
 *   record's start time is that time minus the duration (Envoy's START_TIME is a start too).
 * - JSON encoding (LOG_FORMAT=json): `{"level","time","scope":"access","message", "src.addr",
 *   ...}` with the same field names as keys.
 */

export const HBONE_PORT = 15008;

/**
 * The head `TIME LEVEL access[:span...] MESSAGE ` with any run of tabs or spaces between its
 * parts: ztunnel writes tabs, but the same line pasted into an issue, a README or a chat has
 * spaces (all of them, or all but some). The time may be missing (trimmed docs paste the line
 * from the level on). The message is the words up to the first `key=` field.
 */
const HEAD =
  /^(?:(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d))[ \t]+)?(trace|debug|info|warn|error)[ \t]+access(?::[^\s]*)?(?:[ \t]+|$)/;
const FIELD_START = /^[A-Za-z_][A-Za-z0-9_.]*=/;

/** Whether a text line is a ztunnel access-log line (its head; it may still be cut). */
export function isZtunnelAccessLine(text: string): boolean {
  const c = text.charCodeAt(0);
  // a digit (the time) or the first letter of a level
  return ((c >= 48 && c <= 57) || (c >= 100 && c <= 119)) && HEAD.test(text);
}

export type ZtunnelResult =
  | { kind: 'record'; record: AccessLogRecord }
  | { kind: 'opened' }
  | { kind: 'truncated'; message: string; column: number };

/** Reads `key=value key="quoted value" ...`; stops with the position of a cut value. */
export function parseKeyValues(
  text: string,
  from: number,
): { fields: Map<string, string>; cutAt: number | null } {
  const fields = new Map<string, string>();
  let i = from;
  const n = text.length;
  while (i < n) {
    while (i < n && (text[i] === ' ' || text[i] === '\t')) i++;
    if (i >= n) break;
    const eq = text.indexOf('=', i);
    const space = nextBlank(text, i);
    if (eq < 0 || (space >= 0 && space < eq)) return { fields, cutAt: i };
    const key = text.slice(i, eq);
    i = eq + 1;
    if (text[i] === '"') {
      let value = '';
      let j = i + 1;
      let closed = false;
      while (j < n) {
        const c = text[j] as string;
        if (c === '"') {
          closed = true;
          j++;
          break;
        }
        if (c === '\\' && j + 1 < n) {
          const e = text[j + 1] as string;
          if (e === 'u' && text[j + 2] === '{') {
            const close = text.indexOf('}', j + 3);
            const code = close > 0 ? parseInt(text.slice(j + 3, close), 16) : NaN;
            if (Number.isFinite(code) && code <= 0x10ffff) {
              value += String.fromCodePoint(code);
              j = close + 1;
              continue;
            }
          }
          value += e === 'n' ? '\n' : e === 't' ? '\t' : e === 'r' ? '\r' : e;
          j += 2;
          continue;
        }
        value += c;
        j++;
      }
      if (!closed) return { fields, cutAt: eq + 1 };
      fields.set(key, value);
      i = j;
    } else {
      const end = nextBlank(text, i);
      const stop = end < 0 ? n : end;
      fields.set(key, text.slice(i, stop));
      i = stop;
    }
  }
  return { fields, cutAt: null };
}

/** The next space or tab at or after `from`, or -1. */
function nextBlank(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9) return i;
  }
  return -1;
}

/** `2ms`, `1.5s`, `350us`, `0ns` -> milliseconds; a bare number is taken as milliseconds. */
export function durationMs(text: string | undefined): number | null {
  if (!text) return null;
  const m = /^(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m)?$/.exec(text);
  if (!m) return null;
  const v = Number(m[1]);
  const unit = m[2] ?? 'ms';
  const scale: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60000 };
  return Math.round(v * (scale[unit] ?? 1));
}

/** The destination pod's address (ip:port) by the rule in the notes above, or null. */
export function ztunnelPodAddress(fields: ReadonlyMap<string, string>): string | null {
  const hbone = fields.get('dst.hbone_addr');
  if (hbone && parseAddress(hbone)) return hbone;
  const dst = fields.get('dst.addr');
  const parsed = parseAddress(dst);
  if (dst && parsed && parsed.port !== HBONE_PORT) return dst;
  return null;
}

/**
 * Response flags for a failed connection, in Envoy's terms where the meaning is the same:
 * UF when the connection could not be made (refused, timed out, unreachable), UR when the
 * peer reset it, DENY (ztunnel's own metric flag) for a policy denial, else ERROR.
 */
export function ztunnelFlags(error: string | undefined, level: string): string[] {
  if (error === undefined) return level === 'error' || level === 'warn' ? ['ERROR'] : [];
  const e = error.toLowerCase();
  if (/polic|denied|rbac|not allowed|unauthori/.test(e)) return ['DENY'];
  if (/reset|broken pipe|closed by peer|eof/.test(e)) return ['UR'];
  if (/refused|timed out|timeout|unreachable|no route|failed to connect|connect error/.test(e))
    return ['UF'];
  return ['ERROR'];
}

const REQUIRED = ['src.addr', 'dst.addr'];

/** Builds a record from ztunnel's fields (text or JSON), with the time its head gave. */
export function recordFromZtunnel(
  fields: ReadonlyMap<string, string>,
  level: string,
  time: string,
  message: string,
  lineNo: number,
): AccessLogRecord {
  const record = emptyRecord(lineNo, 'ztunnel');
  record.tcp = true;
  const duration = durationMs(fields.get('duration'));
  const end = toEpochMs(time);
  record.time = end !== null && duration !== null ? end - duration : end;
  record.startTime = record.time !== null ? new Date(record.time).toISOString() : time || null;
  record.duration = duration;
  record.bytesSent = numberOrNull(fields.get('bytes_sent'));
  record.bytesReceived = numberOrNull(fields.get('bytes_recv'));
  record.downstreamRemoteAddress = fields.get('src.addr') ?? null;
  record.upstreamHost = ztunnelPodAddress(fields);
  record.authority = fields.get('dst.service') ?? null;
  const direction = fields.get('direction') === 'inbound' ? 'inbound' : 'outbound';
  const service = fields.get('dst.service');
  // an Istio-style cluster name without a port: ztunnel logs the target port, not the service's
  if (service) record.upstreamCluster = `${direction}|||${service}`;
  const error = fields.get('error');
  record.responseFlags = ztunnelFlags(error, level);
  record.upstreamTransportFailureReason = error ?? null;
  record.responseCodeDetails = message.replace(/ /g, '_');
  // `connection complete` always ends with its duration: without it the line was cut
  record.partial = message === 'connection complete' && !fields.has('duration');
  record.extra.level = level;
  record.extra.time = time;
  for (const [k, v] of fields) if (k.includes('.') || k === 'direction') record.extra[k] = v;
  return record;
}

function numberOrNull(text: string | undefined): number | null {
  if (text === undefined || !/^\d{1,15}$/.test(text)) return null;
  return Number(text);
}

/** Reads one ztunnel text access-log line (see isZtunnelAccessLine). */
export function parseZtunnelText(text: string, lineNo: number): ZtunnelResult {
  const head = HEAD.exec(text);
  if (!head) return { kind: 'truncated', message: 'not a ztunnel access-log line', column: 1 };
  const time = head[1] ?? '';
  const level = head[2] as string;
  // MESSAGE: the words before the first `key=`; ztunnel ends it with a tab, a paste with spaces
  const words: string[] = [];
  let at = head[0].length;
  for (;;) {
    while (at < text.length && (text[at] === ' ' || text[at] === '\t')) at++;
    if (at >= text.length || FIELD_START.test(text.slice(at, at + 64))) break;
    const end = nextBlank(text, at);
    words.push(text.slice(at, end < 0 ? text.length : end));
    at = end < 0 ? text.length : end;
  }
  const message = words.join(' ');
  if (message === 'connection opened') return { kind: 'opened' };
  if (at >= text.length)
    return {
      kind: 'truncated',
      message: message ? `line ends after the message "${message}"` : 'line ends after its head',
      column: text.length + 1,
    };
  const { fields, cutAt } = parseKeyValues(text, at);
  if (cutAt !== null)
    return { kind: 'truncated', message: 'a field value is cut', column: cutAt + 1 };
  const missing = REQUIRED.filter((k) => !fields.has(k));
  if (missing.length > 0)
    return {
      kind: 'truncated',
      message: `no ${missing.join(' or ')}: line cut`,
      column: text.length + 1,
    };
  return { kind: 'record', record: recordFromZtunnel(fields, level, time, message, lineNo) };
}

/** A JSON-encoded ztunnel access log (scope "access" with src/dst fields). */
export function isZtunnelJson(value: Record<string, unknown>): boolean {
  return value.scope === 'access' && ('src.addr' in value || 'dst.addr' in value);
}

export function parseZtunnelJson(value: Record<string, unknown>, lineNo: number): ZtunnelResult {
  const fields = new Map<string, string>();
  for (const [k, v] of Object.entries(value)) {
    if (v === null || v === undefined) continue;
    fields.set(
      k,
      typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v),
    );
  }
  const message = fields.get('message') ?? fields.get('msg') ?? '';
  if (message === 'connection opened') return { kind: 'opened' };
  const time = fields.get('time') ?? '';
  const level = fields.get('level') ?? 'info';
  return { kind: 'record', record: recordFromZtunnel(fields, level, time, message, lineNo) };
}
