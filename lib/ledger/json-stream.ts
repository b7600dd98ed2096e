/**
 * Splits a text stream into top-level JSON values: one per line, or pretty multi-line
 * objects written one after another (what `kubectl get -w -o json` prints). Incremental:
 * feed chunks with push(); memory holds only the value being read.
 */
export interface JsonChunk {
  text: string;
  /** 1-based line where the value starts. */
  line: number;
}

export interface StreamProblem {
  line: number;
  reason: 'not-json' | 'truncated';
  message: string;
}

export interface JsonSplitter {
  push(chunk: string): { values: JsonChunk[]; problems: StreamProblem[] };
  end(): { problems: StreamProblem[] };
}

export function createJsonSplitter(): JsonSplitter {
  let line = 1;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let pending = '';
  let startLine = 0;
  let garbage = false;
  let garbageText = '';

  function push(chunk: string) {
    const values: JsonChunk[] = [];
    const problems: StreamProblem[] = [];
    let start = depth > 0 ? 0 : -1;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (c === 10) {
        if (garbage) {
          problems.push({
            line,
            reason: 'not-json',
            message: `text outside JSON: ${garbageText.slice(0, 80)}`,
          });
          garbage = false;
          garbageText = '';
        }
        line++;
        if (inString) escaped = false;
        continue;
      }
      if (garbage) {
        if (garbageText.length < 80) garbageText += chunk[i];
        continue;
      }
      if (depth === 0) {
        if (c === 123 || c === 91) {
          depth = 1;
          start = i;
          pending = '';
          startLine = line;
        } else if (c !== 32 && c !== 9 && c !== 13 && c !== 0xfeff) {
          garbage = true;
          garbageText = chunk[i] ?? '';
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
      else if (c === 123 || c === 91) depth++;
      else if (c === 125 || c === 93) {
        depth--;
        if (depth === 0) {
          values.push({ text: pending + chunk.slice(start, i + 1), line: startLine });
          pending = '';
          start = -1;
        }
      }
    }
    if (depth > 0 && start >= 0) pending += chunk.slice(start);
    return { values, problems };
  }

  function end() {
    const problems: StreamProblem[] = [];
    if (garbage)
      problems.push({
        line,
        reason: 'not-json',
        message: `text outside JSON: ${garbageText.slice(0, 80)}`,
      });
    if (depth > 0)
      problems.push({
        line: startLine,
        reason: 'truncated',
        message: 'JSON value not closed at end of input',
      });
    depth = 0;
    pending = '';
    return { problems };
  }

  return { push, end };
}
