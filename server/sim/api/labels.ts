/**
 * Kubernetes label selectors (the string form of ?labelSelector=): `a=b`, `a==b`, `a!=b`,
 * `a in (x,y)`, `a notin (x)`, `a` (exists), `!a` (does not exist), comma-separated, all ANDed.
 */
export type LabelRequirement =
  | { key: string; op: 'eq' | 'neq'; value: string }
  | { key: string; op: 'in' | 'notin'; values: string[] }
  | { key: string; op: 'exists' | 'notexists' };

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

const KEY =
  /^([a-z0-9A-Z]([-a-z0-9A-Z.]*[a-z0-9A-Z])?\/)?[a-zA-Z0-9]([-a-zA-Z0-9_.]*[a-zA-Z0-9])?$/;
const VALUE = /^([a-zA-Z0-9]([-a-zA-Z0-9_.]*[a-zA-Z0-9])?)?$/;

/** Split on commas that are not inside parentheses. */
function splitTerms(s: string): string[] | undefined {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') depth += 1;
    if (ch === ')') depth -= 1;
    if (depth < 0) return undefined;
    if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (depth !== 0) return undefined;
  out.push(cur);
  return out;
}

function parseTerm(raw: string): LabelRequirement | string {
  const t = raw.trim();
  const set = /^(\S+)\s+(in|notin)\s*\(([^()]*)\)$/.exec(t);
  if (set !== null) {
    const [, key = '', op, list = ''] = set;
    const values = list.split(',').map((v) => v.trim());
    if (!KEY.test(key)) return `invalid label key "${key}"`;
    const bad = values.find((v) => !VALUE.test(v));
    if (bad !== undefined) return `invalid label value "${bad}"`;
    return { key, op: op === 'in' ? 'in' : 'notin', values };
  }
  const cmp = /^([^=!\s]+)\s*(==|=|!=)\s*(\S*)$/.exec(t);
  if (cmp !== null) {
    const [, key = '', op, value = ''] = cmp;
    if (!KEY.test(key)) return `invalid label key "${key}"`;
    if (!VALUE.test(value)) return `invalid label value "${value}"`;
    return { key, op: op === '!=' ? 'neq' : 'eq', value };
  }
  const neg = /^!\s*(\S+)$/.exec(t);
  if (neg !== null) {
    const key = neg[1] ?? '';
    return KEY.test(key) ? { key, op: 'notexists' } : `invalid label key "${key}"`;
  }
  return KEY.test(t) ? { key: t, op: 'exists' } : `unable to parse requirement "${t}"`;
}

export function parseLabelSelector(s: string | null | undefined): Parsed<LabelRequirement[]> {
  if (s === null || s === undefined || s.trim() === '') return { ok: true, value: [] };
  const terms = splitTerms(s);
  if (terms === undefined) return { ok: false, error: `unbalanced parentheses in "${s}"` };
  const out: LabelRequirement[] = [];
  for (const term of terms) {
    const r = parseTerm(term);
    if (typeof r === 'string') return { ok: false, error: `unable to parse labelSelector: ${r}` };
    out.push(r);
  }
  return { ok: true, value: out };
}

export function matchesLabels(
  reqs: readonly LabelRequirement[],
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  for (const r of reqs) {
    const v = labels?.[r.key];
    switch (r.op) {
      case 'eq':
        if (v !== r.value) return false;
        break;
      case 'neq':
        if (v === r.value) return false;
        break;
      case 'in':
        if (v === undefined || !r.values.includes(v)) return false;
        break;
      case 'notin':
        if (v !== undefined && r.values.includes(v)) return false;
        break;
      case 'exists':
        if (v === undefined) return false;
        break;
      case 'notexists':
        if (v !== undefined) return false;
        break;
    }
  }
  return true;
}
