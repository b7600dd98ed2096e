/**
 * Splits text into top-level JSON values: one per line (JSON Lines) or pretty-printed values
 * written one after another (`kubectl get -w -o json`). Bad values and stray text become
 * errors with a line and column; reading continues at the next value or line.
 */
import { jsonErrorOffset } from './jsonerror';
import { lineColAt, type InputError } from './position';

export interface JsonValueAt {
  value: unknown;
  /** Character offset where the value starts. */
  offset: number;
  line: number;
  column: number;
}

function parseError(text: string, start: number, slice: string, e: unknown): InputError {
  const msg = e instanceof Error ? e.message : String(e);
  const m = /position (\d+)/.exec(msg);
  const rel = m ? Number(m[1]) : jsonErrorOffset(slice);
  const at = start + Math.max(0, rel);
  return { ...lineColAt(text, at), message: `invalid JSON: ${msg.split('\n')[0]}` };
}

export function splitJsonValues(text: string): { values: JsonValueAt[]; errors: InputError[] } {
  const values: JsonValueAt[] = [];
  const errors: InputError[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i] as string;
    if (c === ' ' || c === '\n' || c === '\r' || c === '\t' || c === '\uFEFF' || c === ',') {
      i++;
      continue;
    }
    if (c !== '{' && c !== '[') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? n : end;
      errors.push({
        ...lineColAt(text, i),
        message: `text outside JSON: ${text.slice(i, Math.min(stop, i + 60)).trim()}`,
      });
      i = stop;
      continue;
    }
    const start = i;
    let depth = 0;
    let inString = false;
    let escaped = false;
    for (; i < n; i++) {
      const ch = text[i];
      if (inString) {
        if (escaped) escaped = false;
        else if (ch === '\\') escaped = true;
        else if (ch === '"') inString = false;
        continue;
      }
      if (ch === '"') inString = true;
      else if (ch === '{' || ch === '[') depth++;
      else if (ch === '}' || ch === ']') {
        depth--;
        if (depth === 0) break;
      }
    }
    if (depth !== 0 || i >= n) {
      errors.push({ ...lineColAt(text, start), message: 'unterminated JSON value' });
      // Resume at the next value that starts a line (JSON Lines, or the next pretty value).
      const re = /\n[{[]/g;
      re.lastIndex = start;
      const next = re.exec(text);
      if (!next) break;
      i = next.index + 1;
      continue;
    }
    const slice = text.slice(start, i + 1);
    i++;
    try {
      values.push({ value: JSON.parse(slice), offset: start, ...lineColAt(text, start) });
    } catch (e) {
      errors.push(parseError(text, start, slice, e));
    }
  }
  return { values, errors };
}
