/**
 * Splits text into top-level JSON values: one per line (JSON Lines) or pretty-printed values
 * written one after another (`kubectl get -w -o json`). Bad values and stray text become
 * errors with a line and column; reading continues at the next value or line. The splitting
 * itself is the shared stream splitter (lib/json-stream.ts), also used for pod histories.
 */
import { createJsonSplitter, type JsonSplitterOptions } from '../json-stream';
import { jsonErrorOffset } from './jsonerror';
import { positionAt } from '../parse-problem';
import { type TimelineInputProblem } from './position';

export interface JsonValueAt {
  value: unknown;
  /** Character offset where the value starts. */
  offset: number;
  line: number;
  column: number;
}

function parseError(text: string, start: number, slice: string, e: unknown): TimelineInputProblem {
  const msg = e instanceof Error ? e.message : String(e);
  const m = /position (\d+)/.exec(msg);
  const rel = m ? Number(m[1]) : jsonErrorOffset(slice);
  const at = start + Math.max(0, rel);
  return {
    ...positionAt(text, at),
    reason: 'invalid-json',
    message: `invalid JSON: ${msg.split('\n')[0]}`,
  };
}

export function splitJsonValues(
  text: string,
  limits: JsonSplitterOptions = {},
): { values: JsonValueAt[]; errors: TimelineInputProblem[] } {
  const splitter = createJsonSplitter(limits);
  const pushed = splitter.push(text);
  const problems = [...pushed.problems, ...splitter.end().problems];
  const errors: TimelineInputProblem[] = problems.map((p) => ({
    line: p.line,
    column: p.column,
    reason: p.reason,
    message: p.message,
    ...(p.excerpt !== undefined ? { excerpt: p.excerpt } : {}),
  }));
  const values: JsonValueAt[] = [];
  for (const chunk of pushed.values) {
    try {
      values.push({
        value: JSON.parse(chunk.text),
        offset: chunk.offset,
        line: chunk.line,
        column: chunk.column,
      });
    } catch (e) {
      errors.push(parseError(text, chunk.offset, chunk.text, e));
    }
  }
  errors.sort((a, b) => a.line - b.line || a.column - b.column);
  return { values, errors };
}
