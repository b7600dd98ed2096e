import type {
  AccessLogRecord,
  ErrorReason,
  AccessLogProblem,
  LineResult,
  SkipReason,
} from './types';
import { RESPONSE_FLAGS } from './flags';

export interface ReasonCount {
  count: number;
  /** The first few line numbers with this reason. */
  firstLines: number[];
}

/** What a parse of a whole log came to: every line is counted exactly once. */
export interface AccessLogSummary {
  lines: number;
  parsed: number;
  /** Parsed records that only had a prefix of their fields (cut lines, unknown tails). */
  partial: number;
  tcp: number;
  /** Records without a time (no leading start time): usable for counts, not for attribution. */
  untimed: number;
  /** Records whose line named the pod that wrote it (kubectl --prefix, stern): pod -> count. */
  sources: Record<string, number>;
  skipped: Partial<Record<SkipReason, ReasonCount>>;
  errors: Partial<Record<ErrorReason, ReasonCount>>;
  /** Response code -> count ("0" for TCP, "-" when absent). */
  byCode: Record<string, number>;
  /** Response flag -> count ("-" for records without flags); a multi-flag line counts for each. */
  byFlag: Record<string, number>;
  /** Format id -> records read with it. */
  formats: Record<string, number>;
  unknownFlags: string[];
  firstTime: string | null;
  lastTime: string | null;
}

const FIRST_LINES = 5;

export interface SummaryBuilder {
  add(result: LineResult): void;
  /** The first errors in full (line, reason, message, sample). */
  firstErrors: AccessLogProblem[];
  summary(): AccessLogSummary;
}

/** Accumulates a summary in constant memory (bounded lists of first lines). */
export function createSummaryBuilder(keepErrors = 20): SummaryBuilder {
  const s: AccessLogSummary = {
    lines: 0,
    parsed: 0,
    partial: 0,
    tcp: 0,
    untimed: 0,
    sources: {},
    skipped: {},
    errors: {},
    byCode: {},
    byFlag: {},
    formats: {},
    unknownFlags: [],
    firstTime: null,
    lastTime: null,
  };
  let minTime = Infinity;
  let maxTime = -Infinity;
  const firstErrors: AccessLogProblem[] = [];

  function countRecord(r: AccessLogRecord): void {
    s.parsed++;
    if (r.partial) s.partial++;
    if (r.tcp) s.tcp++;
    if (r.time === null) s.untimed++;
    if (r.source !== undefined && (r.source in s.sources || Object.keys(s.sources).length < 1000))
      bump(s.sources, r.source);
    bump(s.byCode, r.responseCode === null ? '-' : String(r.responseCode));
    if (r.responseFlags.length === 0) bump(s.byFlag, '-');
    for (const f of r.responseFlags) {
      bump(s.byFlag, f);
      if (!(f in RESPONSE_FLAGS) && !s.unknownFlags.includes(f) && s.unknownFlags.length < 50)
        s.unknownFlags.push(f);
    }
    bump(s.formats, r.format);
    if (r.time !== null && r.startTime !== null) {
      if (r.time < minTime) {
        minTime = r.time;
        s.firstTime = r.startTime;
      }
      if (r.time > maxTime) {
        maxTime = r.time;
        s.lastTime = r.startTime;
      }
    }
  }

  return {
    firstErrors,
    add(result) {
      s.lines++;
      if (result.kind === 'record') countRecord(result.record);
      else if (result.kind === 'skipped') note(s.skipped, result.reason, result.line);
      else {
        note(s.errors, result.error.reason, result.error.line);
        if (firstErrors.length < keepErrors) firstErrors.push(result.error);
      }
    },
    summary: () => structuredClone(s),
  };
}

function bump(map: Record<string, number>, key: string): void {
  map[key] = (map[key] ?? 0) + 1;
}

function note<K extends string>(map: Partial<Record<K, ReasonCount>>, key: K, line: number): void {
  const entry = map[key] ?? { count: 0, firstLines: [] };
  entry.count++;
  if (entry.firstLines.length < FIRST_LINES) entry.firstLines.push(line);
  map[key] = entry;
}
