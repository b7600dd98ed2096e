import type { FindingsReport } from './api';

type Finding = FindingsReport['findings'][number];
type Severity = Finding['severity'];

export const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

export interface CodeCount {
  code: string;
  title: string;
  severity: Severity;
  count: number;
}

/** Findings per code, worst severity first, then most frequent. */
export function countByCode(findings: Finding[], catalog: FindingsReport['catalog']): CodeCount[] {
  const titles = new Map(catalog.map((c) => [c.code, c.title]));
  const byCode = new Map<string, CodeCount>();
  for (const f of findings) {
    const c = byCode.get(f.code) ?? {
      code: f.code,
      title: titles.get(f.code) ?? f.code,
      severity: f.severity,
      count: 0,
    };
    c.count++;
    if (SEVERITY_ORDER[f.severity] < SEVERITY_ORDER[c.severity]) c.severity = f.severity;
    byCode.set(f.code, c);
  }
  return [...byCode.values()].sort(
    (a, b) =>
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      b.count - a.count ||
      a.code.localeCompare(b.code),
  );
}

/** Worst first; within a severity, by code then subject, so the list is stable. */
export function sortFindings(findings: Finding[]): Finding[] {
  const key = (f: Finding) => `${f.code}|${f.subject.namespace ?? ''}|${f.subject.name}`;
  return [...findings].sort(
    (a, b) =>
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || key(a).localeCompare(key(b)),
  );
}

/** How many findings of each severity: Overview's totals, of the findings every list shows. */
export function severityTotals(findings: readonly Finding[]): Record<Severity, number> {
  const by: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const f of findings) by[f.severity]++;
  return by;
}
