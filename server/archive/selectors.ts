/**
 * Label and field selectors as the Kubernetes API reads them, for the archive's lists:
 * `a=b`, `a==b`, `a!=b`, `a`, `!a`, `a in (x,y)`, `a notin (x)` for labels; `path=value` and
 * `path!=value` on dotted fields (`metadata.name`, `spec.nodeName`, `involvedObject.name`).
 */
import type { KubeObject } from '../../lib/kube/types';

type Test = (o: KubeObject) => boolean;

function splitTerms(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

/** A label selector's test, or an error naming the term it cannot read. */
export function labelSelectorTest(selector: string): Test | { error: string } {
  const tests: Test[] = [];
  for (const term of splitTerms(selector)) {
    const labels = (o: KubeObject): Record<string, string> => o.metadata.labels ?? {};
    let m;
    if ((m = /^([\w./-]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(term))) {
      const [, key = '', op, list = ''] = m;
      const values = new Set(list.split(',').map((v) => v.trim()));
      tests.push((o) => {
        const v = labels(o)[key];
        return op === 'in' ? v !== undefined && values.has(v) : v === undefined || !values.has(v);
      });
    } else if ((m = /^([\w./-]+)\s*(==|=|!=)\s*([\w./-]*)$/.exec(term))) {
      const [, key = '', op, value = ''] = m;
      tests.push((o) => (op === '!=' ? labels(o)[key] !== value : labels(o)[key] === value));
    } else if ((m = /^!([\w./-]+)$/.exec(term))) {
      const key = m[1] ?? '';
      tests.push((o) => labels(o)[key] === undefined);
    } else if ((m = /^([\w./-]+)$/.exec(term))) {
      const key = m[1] ?? '';
      tests.push((o) => labels(o)[key] !== undefined);
    } else return { error: `unable to parse requirement: ${JSON.stringify(term)}` };
  }
  return (o) => tests.every((t) => t(o));
}

function fieldOf(o: unknown, path: string): string {
  let v: unknown = o;
  for (const p of path.split('.'))
    v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[p] : undefined;
  return v === undefined || v === null ? '' : String(v);
}

export function fieldSelectorTest(selector: string): Test | { error: string } {
  const tests: Test[] = [];
  for (const term of splitTerms(selector)) {
    const m = /^([\w.]+)\s*(==|=|!=)\s*(.*)$/.exec(term);
    if (!m) return { error: `invalid field selector term ${JSON.stringify(term)}` };
    const [, path = '', op, value = ''] = m;
    tests.push((o) => (op === '!=' ? fieldOf(o, path) !== value : fieldOf(o, path) === value));
  }
  return (o) => tests.every((t) => t(o));
}
