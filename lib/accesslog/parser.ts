import type { AccessLogRecord, ErrorReason, LineResult, RecordField } from './types';
import {
  buildRecord,
  compileFormat,
  FieldFilter,
  matchFormat,
  type CompiledFormat,
  type FormatProblem,
  type MatchResult,
} from './format';
import { parseAddress } from './address';
import { builtinFormats, NO_TIME_SUFFIX, prefixFormats } from './formats';
import { classifyJson, recordFromJson } from './json';
import {
  isBlank,
  isProxyLogLine,
  isStatsLine,
  looksBinary,
  looksLikeAccessLogStart,
  podFromColumns,
  recordStarts,
  splitKubectlPrefix,
  splitKubectlTimestamp,
  stripAnsi,
} from './classify';
import { isZtunnelAccessLine, parseZtunnelJson, parseZtunnelText } from './ztunnel';

export interface ParserOptions {
  /** A custom Envoy format string; tried before Istio's built-in formats. */
  format?: string;
  /** Only the custom format: no auto-detection of the built-in ones. */
  onlyCustom?: boolean;
  /**
   * Whether the line before the first one pushed was part of a proxy log entry (so that
   * indented lines continue it). For a parser that starts in the middle of a log; see
   * proxyLogStateAfter in proxy-state.ts. Default false (the start of a log).
   */
  initialInProxyLog?: boolean;
  /**
   * Only these fields are filled from TEXT lines (others stay empty; JSON lines are read
   * whole): for a scan that needs a few fields of many lines. Default: every field.
   */
  fields?: readonly RecordField[];
}

export interface LineParser {
  /** Parses the next line (terminator may be included). Line numbers count from 1. */
  push(line: string): LineResult;
  /**
   * Advances over a line the caller has proven to be an access-log record without reading it
   * (the pre-scan's verdict): counts the line and leaves the state as push() would. Returns
   * its line number.
   */
  skipRecord(): number;
  /**
   * Counts a line the caller could not hand over (longer than its line limit) as an
   * unreadable line: returns its error, the state unchanged.
   */
  tooLong(excerpt: string, limit: number): LineResult;
  /** Problems found while compiling the custom format, if any. */
  formatProblems: FormatProblem[];
  /** Whether the last line pushed left a proxy log entry open (continuations follow). */
  readonly inProxyLog: boolean;
}

const SAMPLE = 120;

/** The last double-quoted `ip:port` of a line, after its quoted request line. */
function lastQuotedAddress(text: string): string | null {
  const quoted = [...text.matchAll(/"([^"]*)"/g)].slice(1);
  for (let i = quoted.length - 1; i >= 0; i--) {
    const value = quoted[i]?.[1] ?? '';
    if (parseAddress(value)?.port != null) return value;
  }
  return null;
}

/**
 * A stateful line-by-line parser: it keeps only the line number and whether the previous line
 * was a proxy log line (for continuations). Memory does not grow with the input.
 */
export function createLineParser(options: ParserOptions = {}): LineParser {
  const custom = options.format ? compileFormat(options.format, 'custom') : null;
  const formats: CompiledFormat[] = [];
  if (custom) formats.push(custom.format);
  if (!custom || !options.onlyCustom) formats.push(...builtinFormats());
  let lineNo = 0;
  let inProxyLog = options.initialInProxyLog ?? false;
  // the parser itself reads the start and the code of a partial match
  const only = options.fields
    ? new FieldFilter(new Set<RecordField>([...options.fields, 'startTime', 'responseCode']))
    : null;

  function error(reason: ErrorReason, message: string, text: string): LineResult {
    return {
      kind: 'error',
      error: { line: lineNo, reason, message, excerpt: text.slice(0, SAMPLE) },
    };
  }

  /**
   * Formats are tried in priority order (custom first, then Istio's generations newest first)
   * on every line: the first full match wins, so a line reads the same whatever came before it
   * (which lets a caller skip lines it has classified itself, see prescan.ts).
   */
  function parseText(text: string, timestamp: string | null): LineResult {
    let best: { format: CompiledFormat; match: MatchResult } | null = null;
    for (const format of formats) {
      const m = matchFormat(format, text);
      if (m.status === 'full') return done(buildRecord(format, m, lineNo, only), timestamp);
      if (m.status === 'partial' && (!best || m.matched > best.match.matched))
        best = { format, match: m };
    }
    if (best) {
      const record = buildRecord(best.format, best.match, lineNo, only);
      // a cut line whose head was read: the record of a format without time needs no time
      const untimed = best.format.id.endsWith(NO_TIME_SUFFIX);
      if ((record.startTime !== null || untimed) && record.responseCode !== null)
        return done(record, timestamp);
    }
    for (const prefix of options.onlyCustom ? [] : prefixFormats()) {
      const m = matchFormat(prefix, text);
      if (m.status === 'full') {
        const record = buildRecord(prefix, m, lineNo, only);
        record.partial = true;
        const upstream = lastQuotedAddress(text);
        if (upstream) {
          // Istio's formats quote %UPSTREAM_HOST% and put it after the other quoted fields;
          // trimmed custom formats (the classic "503 UC ... "10.10.10.10:80"") keep that shape
          record.upstreamHost = upstream;
          record.extra['%UPSTREAM_HOST%'] = 'guessed: the last quoted address of the line';
        }
        return done(record, timestamp);
      }
    }
    if (looksBinary(text))
      return error('binary', 'line contains binary data or invalid UTF-8', text);
    if (best && best.match.matched >= 2)
      return error(
        'truncated',
        `line ends after ${best.match.matched} fields of format ${best.format.id}`,
        text,
      );
    return error('unknown-format', 'no known access-log format matches this line', text);
  }

  function parseJson(text: string, timestamp: string | null): LineResult {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      const reason = text.trimEnd().endsWith('}') ? 'invalid-json' : 'truncated';
      return error(reason, `invalid JSON: ${e instanceof Error ? e.message : String(e)}`, text);
    }
    const kind = classifyJson(value);
    if (kind === 'ztunnel') {
      const z = parseZtunnelJson(value as Record<string, unknown>, lineNo);
      if (z.kind === 'record') return done(z.record, timestamp);
      if (z.kind === 'opened')
        return { kind: 'skipped', line: lineNo, reason: 'connection-opened' };
    }
    if (kind === 'proxy-log') {
      inProxyLog = true;
      return { kind: 'skipped', line: lineNo, reason: 'proxy-log' };
    }
    if (kind === 'other')
      return error('unknown-format', 'JSON object without access-log keys', text);
    return done(recordFromJson(value as Record<string, unknown>, lineNo), timestamp);
  }

  function done(record: AccessLogRecord, timestamp: string | null): LineResult {
    inProxyLog = false;
    record.logTimestamp = timestamp;
    return { kind: 'record', record };
  }

  function push(raw: string): LineResult {
    lineNo++;
    let text = raw;
    if (text.endsWith('\n')) text = text.slice(0, -1);
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (isBlank(text)) return { kind: 'skipped', line: lineNo, reason: 'empty' };
    text = stripAnsi(text);
    // `[pod/` cannot start a record (a start time starts with a digit): kubectl's prefix
    const kubectl = splitKubectlPrefix(text);
    if (kubectl) return withSource(readLine(kubectl.rest), kubectl.pod);
    const direct = readLine(text);
    if (direct.kind === 'record') return direct;
    if (direct.kind === 'skipped' && direct.reason !== 'proxy-log-continuation') return direct;
    // A record behind other columns: only now, so that a line that reads as it is (the
    // default format's own `[START_TIME]` first) is never cut.
    return behindColumns(text, direct) ?? direct;
  }

  /** A line, after an optional `kubectl logs --timestamps` time. */
  function readLine(text: string): LineResult {
    const split = splitKubectlTimestamp(text);
    // a pasted ztunnel or agent line `TIME info ...` has its own time and spaces after it
    if (
      !split ||
      (!isDigitAt(split.rest, 0) && (isZtunnelAccessLine(text) || isProxyLogLine(text)))
    )
      return classify(text, null);
    const result = classify(split.rest, split.timestamp);
    if (result.kind !== 'error') return result;
    // A custom format may itself start with an RFC 3339 time: try the whole line too.
    const whole = classify(text, null);
    return whole.kind === 'record' ? whole : result;
  }

  /**
   * A record behind columns another tool wrote (stern's `POD CONTAINER `, a log UI's own
   * time and host): tried at each place a record can start, in order. A start that is
   * certainly a record's (`[TIME]`, `{"`) and reads as a cut record ends the search with that
   * error: a later start inside the same record (its request line) must not read as a record
   * without a time.
   */
  function behindColumns(text: string, direct: LineResult): LineResult | null {
    const continuation = direct.kind === 'skipped';
    for (const start of recordStarts(text)) {
      const r = readLine(text.slice(start.at));
      const pod = podFromColumns(text.slice(0, start.at));
      if (r.kind === 'record' || (r.kind === 'skipped' && r.reason !== 'proxy-log-continuation'))
        return withSource(r, pod);
      if (
        !continuation &&
        r.kind === 'error' &&
        r.error.reason === 'truncated' &&
        (start.kind === 'time' || start.kind === 'json')
      )
        return r;
    }
    return null;
  }

  function withSource(result: LineResult, pod: string | null): LineResult {
    if (pod !== null && result.kind === 'record') result.record.source = pod;
    return result;
  }

  function classify(text: string, timestamp: string | null): LineResult {
    if (isZtunnelAccessLine(text)) {
      const z = parseZtunnelText(text, lineNo);
      if (z.kind === 'record') return done(z.record, timestamp);
      if (z.kind === 'opened')
        return { kind: 'skipped', line: lineNo, reason: 'connection-opened' };
      return error('truncated', `ztunnel access log: ${z.message} (column ${z.column})`, text);
    }
    if (isProxyLogLine(text)) {
      inProxyLog = true;
      return { kind: 'skipped', line: lineNo, reason: 'proxy-log' };
    }
    if (isStatsLine(text)) return { kind: 'skipped', line: lineNo, reason: 'stats' };
    if (inProxyLog && !looksLikeAccessLogStart(text)) {
      return { kind: 'skipped', line: lineNo, reason: 'proxy-log-continuation' };
    }
    if (text.startsWith('{')) return parseJson(text, timestamp);
    return parseText(text, timestamp);
  }

  function skipRecord(): number {
    lineNo++;
    inProxyLog = false;
    return lineNo;
  }

  function tooLong(excerpt: string, limit: number): LineResult {
    lineNo++;
    return error('too-long', `line longer than ${limit} bytes: not read`, excerpt);
  }

  return {
    push,
    skipRecord,
    tooLong,
    formatProblems: custom?.problems ?? [],
    get inProxyLog() {
      return inProxyLog;
    },
  };
}

function isDigitAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c >= 48 && c <= 57;
}

/** Parses a whole text (tests, small inputs). Large inputs: feed createLineParser line by line. */
export function parseAccessLog(text: string, options: ParserOptions = {}): LineResult[] {
  const parser = createLineParser(options);
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => parser.push(l));
}
