import { createLineParser } from '../accesslog/parser';
import type { AccessLogRecord } from '../accesslog/types';
import type { LogSource } from '../api/incidents';
import type { IncidentLineProblem, LogInput } from './log-input';

/** A source's counts as the Incidents view reports them, before any is read. */
export function newLogSource(input: LogInput): LogSource {
  return {
    source: input.source,
    lines: 0,
    records: 0,
    failing: 0,
    errors: 0,
    skipped: 0,
    problem: input.problem ?? null,
  };
}

/**
 * The access-log records of one source's text, each with its raw line. Lines, skipped lines,
 * records and unreadable lines are counted into `src` as they are read; the first `maxErrors`
 * unreadable lines go to `errors` with their line numbers (the rest are counted only). `failing`
 * is the caller's to count.
 */
export function* logRecords(
  input: LogInput,
  src: LogSource,
  format: string | undefined,
  errors: IncidentLineProblem[],
  maxErrors: number,
): Generator<{ line: string; record: AccessLogRecord }> {
  if (input.problem) return;
  const parser = createLineParser({ format });
  const lines = input.text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  for (const line of lines) {
    src.lines++;
    const r = parser.push(line);
    if (r.kind === 'skipped') {
      if (r.reason !== 'empty') src.skipped++;
      continue;
    }
    if (r.kind === 'error') {
      src.errors++;
      if (errors.length < maxErrors) errors.push({ source: input.source, ...r.error });
      continue;
    }
    src.records++;
    yield { line, record: r.record };
  }
}
