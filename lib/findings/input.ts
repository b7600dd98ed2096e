/**
 * Kubernetes objects out of text as kubectl and editors write it: multi-document YAML, JSON,
 * `kubectl get ... -o yaml|json` output (a `List`, or any `...List` kind, is unwrapped), JSON
 * lines. A document that cannot be read is reported with its line and the reading goes on.
 * Pure: the caller reads the file.
 */
import { LineCounter, parseAllDocuments } from 'yaml';
import { yamlValue } from '../yaml-limits';
import { isJsonObject } from '../json-object';
import type { ParseProblem } from '../parse-problem';
import type { TimelineInputReason } from '../timeline/position';

export interface ReadObject {
  object: unknown;
  /** `file:line` of the document (or List item) it came from. */
  origin: string;
}

/** Why a file, or a document in it, gave no Kubernetes object meshdx can check. */
export type UnreadableReason =
  | 'invalid-json'
  | 'invalid-yaml'
  | 'not-an-object'
  | 'no-objects'
  | 'no-manifests'
  | 'other-kind'
  | TimelineInputReason;

/** A part of the input that could not be read, in its file (line 0: the file as a whole). */
export interface Unreadable extends ParseProblem {
  file: string;
  reason: UnreadableReason;
}

export interface ParsedText {
  objects: ReadObject[];
  unreadable: Unreadable[];
}

type Obj = Record<string, unknown>;
const isObj = isJsonObject;

function isList(o: Obj): boolean {
  return (
    Array.isArray(o.items) &&
    typeof o.kind === 'string' &&
    (o.kind === 'List' || o.kind.endsWith('List'))
  );
}

/** Unwrap Lists (kubectl's and the API's), keeping each item's origin. */
function push(
  out: ReadObject[],
  v: unknown,
  origin: string,
  unreadable: Unreadable[],
  file: string,
  line: number,
): void {
  if (v === null || v === undefined) return;
  if (isObj(v) && isList(v)) {
    const listKind = typeof v.kind === 'string' ? v.kind : 'List';
    const itemKind =
      listKind !== 'List' && listKind.endsWith('List') ? listKind.slice(0, -4) : undefined;
    (v.items as unknown[]).forEach((item, i) => {
      const withKind =
        itemKind !== undefined && isObj(item) && item.kind === undefined
          ? { ...item, kind: itemKind }
          : item;
      push(out, withKind, `${origin} items[${i}]`, unreadable, file, line);
    });
    return;
  }
  if (Array.isArray(v)) {
    v.forEach((item, i) => push(out, item, `${origin}[${i}]`, unreadable, file, line));
    return;
  }
  if (!isObj(v)) {
    unreadable.push({
      file,
      line,
      reason: 'not-an-object',
      message: `not a Kubernetes object (a ${typeof v})`,
    });
    return;
  }
  out.push({ object: v, origin });
}

/** Objects of one file's text; `file` names it in origins and errors. */
export function parseManifestText(text: string, file: string): ParsedText {
  const objects: ReadObject[] = [];
  const unreadable: Unreadable[] = [];
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      push(objects, JSON.parse(text) as unknown, `${file}:1`, unreadable, file, 1);
      return { objects, unreadable };
    } catch {
      // not one JSON value: JSON lines, or YAML (a JSON document is also YAML)
      const lines = text.split('\n');
      if (lines.filter((l) => l.trim() !== '').every((l) => l.trim().startsWith('{'))) {
        lines.forEach((l, i) => {
          if (l.trim() === '') return;
          try {
            push(objects, JSON.parse(l) as unknown, `${file}:${i + 1}`, unreadable, file, i + 1);
          } catch (e) {
            unreadable.push({
              file,
              line: i + 1,
              reason: 'invalid-json',
              message: `invalid JSON: ${(e as Error).message}`,
            });
          }
        });
        return { objects, unreadable };
      }
    }
  }
  const counter = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter: counter, uniqueKeys: false });
  const list = Array.isArray(docs) ? docs : [docs];
  for (const doc of list) {
    // the line of the object itself (its first key), not of the `---` before it
    const start = doc.contents?.range?.[0] ?? doc.range?.[0] ?? 0;
    const line = counter.linePos(start).line;
    if (doc.errors.length > 0) {
      const e = doc.errors[0];
      const at = e?.linePos?.[0]?.line ?? line;
      unreadable.push({
        file,
        line: at,
        reason: 'invalid-yaml',
        message: `invalid YAML: ${(e?.message.split('\n')[0] ?? 'unreadable').replace(/:$/, '')}`,
      });
      continue;
    }
    const read = yamlValue(doc);
    if ('error' in read) {
      unreadable.push({ file, line, reason: 'invalid-yaml', message: read.error });
      continue;
    }
    push(objects, read.value, `${file}:${line}`, unreadable, file, line);
  }
  return { objects, unreadable };
}
