import { parseDocument } from 'yaml';
import { findJsonError } from './json-position';
import type { DumpError } from './types';

export interface TextValue {
  value: unknown;
  syntax: 'json' | 'yaml';
  errors: DumpError[];
}

/** 1-based line and column of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.max(0, Math.min(offset, text.length));
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}

function jsonError(text: string, err: unknown): DumpError {
  const found = findJsonError(text);
  const where = lineColumn(text, found ? found.offset : text.length);
  const reason = found ? found.reason : err instanceof Error ? err.message : String(err);
  return { code: 'syntax', message: `invalid JSON: ${reason}`, ...where };
}

/**
 * Reads text as JSON when its first non-space character is `{` or `[`, as YAML otherwise
 * (istioctl `-o yaml`, or YAML written by hand). Syntax errors come back with positions.
 */
export function readStructuredText(raw: string): TextValue {
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  const first = /\S/.exec(text);
  if (!first) {
    return { value: null, syntax: 'json', errors: [{ code: 'empty', message: 'input is empty' }] };
  }
  if (first[0] === '{' || first[0] === '[') {
    try {
      return { value: JSON.parse(text) as unknown, syntax: 'json', errors: [] };
    } catch (err) {
      return { value: null, syntax: 'json', errors: [jsonError(text, err)] };
    }
  }
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: false });
  if (doc.errors.length > 0) {
    const errors: DumpError[] = doc.errors.map((e) => ({
      code: 'syntax',
      message: `invalid YAML: ${e.message.split('\n')[0] ?? e.code}`,
      line: e.linePos?.[0].line,
      column: e.linePos?.[0].col,
    }));
    return { value: null, syntax: 'yaml', errors };
  }
  return { value: doc.toJS({ maxAliasCount: 1000 }) as unknown, syntax: 'yaml', errors: [] };
}
