import { parseDocument } from 'yaml';
import { yamlValue } from '../yaml-limits';
import { findJsonError } from './json-position';
import { positionAt } from '../parse-problem';
import type { DumpProblem } from './types';

export interface TextValue {
  value: unknown;
  syntax: 'json' | 'yaml';
  errors: DumpProblem[];
}

function jsonError(text: string, err: unknown): DumpProblem {
  const found = findJsonError(text);
  const where = positionAt(text, found ? found.offset : text.length);
  const reason = found ? found.reason : err instanceof Error ? err.message : String(err);
  return { reason: 'syntax', message: `invalid JSON: ${reason}`, ...where };
}

/**
 * Reads text as JSON when its first non-space character is `{` or `[`, as YAML otherwise
 * (istioctl `-o yaml`, or YAML written by hand). Syntax errors come back with positions.
 */
export function readStructuredText(raw: string): TextValue {
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  const first = /\S/.exec(text);
  if (!first) {
    return {
      value: null,
      syntax: 'json',
      errors: [{ line: 0, reason: 'empty', message: 'input is empty' }],
    };
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
    const errors: DumpProblem[] = doc.errors.map((e) => ({
      reason: 'syntax',
      message: `invalid YAML: ${e.message.split('\n')[0] ?? e.code}`,
      line: e.linePos?.[0].line ?? 0,
      column: e.linePos?.[0].col,
    }));
    return { value: null, syntax: 'yaml', errors };
  }
  const read = yamlValue(doc, 1000);
  if ('error' in read)
    return {
      value: null,
      syntax: 'yaml',
      errors: [{ reason: 'syntax', message: read.error, line: 1 }],
    };
  return { value: read.value, syntax: 'yaml', errors: [] };
}
