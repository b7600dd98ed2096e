import type { ParseProblem } from './parse-problem';

/**
 * Splits a text stream into top-level JSON values: one per line (JSON Lines), or pretty
 * multi-line values written one after another (what `kubectl get -w -o json` prints), with
 * blanks or commas between them. Incremental: feed chunks with push(); memory holds only the
 * value being read. The one splitter for watch captures (pod history, timelines).
 *
 * Robust by construction:
 * - a raw newline cannot be inside a JSON string, so a string still open at a line end ends
 *   there (the value is broken, the next line is read afresh);
 * - a `{` or `[` first on a line while a value is open starts a new value: the open one was
 *   cut (kubectl indents nested lines; a cut value must not swallow the rest of the file);
 * - nesting deeper than maxDepth, or a value longer than maxValueChars, is reported and
 *   skipped without being kept, so JSON.parse never sees it (no call-stack overflow, no
 *   "string too long").
 */
export interface JsonChunk {
  text: string;
  /** 1-based line where the value starts. */
  line: number;
  /** 1-based column where the value starts. */
  column: number;
  /** Character offset of the value's start in the whole stream. */
  offset: number;
}

export interface StreamProblem extends ParseProblem {
  reason: 'not-json' | 'truncated' | 'too-deep' | 'too-large';
  column: number;
}

export interface JsonSplitterOptions {
  /** Deepest nesting accepted (default 512). */
  maxDepth?: number;
  /** Longest value accepted, in characters (default 256 Mi). */
  maxValueChars?: number;
}

export interface JsonSplitter {
  push(chunk: string): { values: JsonChunk[]; problems: StreamProblem[] };
  end(): { problems: StreamProblem[] };
}

export const DEFAULT_MAX_DEPTH = 512;
export const DEFAULT_MAX_VALUE_CHARS = 256 * 1024 * 1024;

export function createJsonSplitter(options: JsonSplitterOptions = {}): JsonSplitter {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const maxValue = options.maxValueChars ?? DEFAULT_MAX_VALUE_CHARS;
  let line = 1;
  let column = 1;
  let offset = 0;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let pending = '';
  let pendingLength = 0;
  let start = { line: 0, column: 0, offset: 0 };
  /** The open value is being skipped (too deep or too large): its text is not kept. */
  let skipping = false;
  let garbage = false;
  let garbageText = '';
  let garbageAt = { line: 0, column: 0 };

  function push(chunk: string) {
    const values: JsonChunk[] = [];
    const problems: StreamProblem[] = [];
    let from = depth > 0 && !skipping ? 0 : -1;

    const flushGarbage = () => {
      if (!garbage) return;
      problems.push({
        ...garbageAt,
        reason: 'not-json',
        message: `text outside JSON: ${garbageText.trim()}`,
        excerpt: garbageText.trim(),
      });
      garbage = false;
      garbageText = '';
    };
    const begin = (i: number, col: number) => {
      depth = 1;
      inString = false;
      escaped = false;
      skipping = false;
      from = i;
      pending = '';
      pendingLength = 0;
      start = { line, column: col, offset: offset + i };
    };
    const problemAtStart = (reason: StreamProblem['reason'], message: string) =>
      problems.push({ line: start.line, column: start.column, reason, message });
    const skip = (reason: StreamProblem['reason'], message: string) => {
      problemAtStart(reason, message);
      skipping = true;
      pending = '';
      from = -1;
    };

    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (c === 10) {
        flushGarbage();
        line++;
        column = 1;
        // a raw newline ends any string: JSON strings cannot hold one
        inString = false;
        escaped = false;
        continue;
      }
      const col = column++;
      if (garbage) {
        if (garbageText.length < 80) garbageText += chunk[i];
        continue;
      }
      if (depth > 0 && col === 1 && !inString && (c === 123 || c === 91)) {
        // a value starting a line while another is open: the open one was cut
        problemAtStart('truncated', 'unterminated JSON value');
        begin(i, col);
        continue;
      }
      if (depth === 0) {
        if (c === 123 || c === 91) begin(i, col);
        else if (c !== 32 && c !== 9 && c !== 13 && c !== 0xfeff && c !== 44) {
          garbage = true;
          garbageText = chunk[i] ?? '';
          garbageAt = { line, column: col };
        }
        continue;
      }
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 92) escaped = true;
        else if (c === 34) inString = false;
        continue;
      }
      if (c === 34) inString = true;
      else if (c === 123 || c === 91) {
        depth++;
        if (depth > maxDepth && !skipping)
          skip('too-deep', `JSON value nested deeper than ${maxDepth} levels: skipped`);
      } else if (c === 125 || c === 93) {
        depth--;
        if (depth === 0) {
          if (!skipping) {
            const text = pending + chunk.slice(from, i + 1);
            values.push({ text, ...start });
          }
          skipping = false;
          pending = '';
          pendingLength = 0;
          from = -1;
        }
      }
    }
    if (depth > 0 && !skipping && from >= 0) {
      pendingLength += chunk.length - from;
      if (pendingLength > maxValue)
        skip('too-large', `JSON value longer than ${maxValue} characters: skipped`);
      else pending += chunk.slice(from);
    }
    offset += chunk.length;
    return { values, problems };
  }

  function end() {
    const problems: StreamProblem[] = [];
    if (garbage) {
      const text = garbageText.trim();
      problems.push({
        ...garbageAt,
        reason: 'not-json',
        message: `text outside JSON: ${text}`,
        excerpt: text,
      });
    }
    if (depth > 0 && !skipping)
      problems.push({
        line: start.line,
        column: start.column,
        reason: 'truncated',
        message: 'unterminated JSON value',
      });
    depth = 0;
    pending = '';
    garbage = false;
    return { problems };
  }

  return { push, end };
}
