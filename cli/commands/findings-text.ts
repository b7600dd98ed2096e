import type { FindingGroup } from '../../lib/api/findings';
import type { SuppressedCount } from '../../lib/findings/suppress';
import type { Finding } from '../../lib/findings/types';
import { objectText } from '../../lib/refs/object-ref';

/** The text `meshdx findings` prints: the groups of findings and what was suppressed. */

function subjectText(f: { subject: Finding['subject'] }): string {
  const s = f.subject;
  return s.namespace
    ? objectText(s.kind, { namespace: s.namespace, name: s.name })
    : `${s.kind} ${s.name}`;
}

function evidenceText(e: Finding['evidence']): string {
  return Object.entries(e)
    .filter(([, v]) => v !== null && v !== '')
    .slice(0, 6)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(' ');
}

function indent(text: string, by: string): string {
  return text
    .trimEnd()
    .split('\n')
    .map((l) => `${by}${l}`)
    .join('\n');
}

/** The human report: groups worst first, each object, the fix once. */
export function formatGroups(groups: readonly FindingGroup[]): string {
  const lines: string[] = [];
  for (const g of groups) {
    const harm = g.harmed > 0 ? `, harm seen on ${g.harmed}` : '';
    lines.push(`${g.severity.toUpperCase().padEnd(7)} ${g.code} ${g.title} (${g.count}${harm})`);
    for (const o of g.objects.slice(0, 20)) {
      const part = o.part ? ` [${o.part.kind} ${o.part.name}]` : '';
      lines.push(`        ${subjectText(o)}${part}  ${evidenceText(o.evidence)}`);
    }
    if (g.objects.length > 20) lines.push(`        ... and ${g.objects.length - 20} more`);
    if (g.fix) {
      lines.push(`  fix (${g.fix.scope}): ${g.fix.why}`);
      if (g.fix.yaml) lines.push(indent(g.fix.yaml, '    '));
    }
    for (const r of g.rest.slice(0, 10)) {
      lines.push(
        `  fix for ${r.subjects.map((s) => subjectText({ subject: s })).join(', ')}: ${r.fix.why}`,
      );
      if (r.fix.yaml) lines.push(indent(r.fix.yaml, '    '));
    }
    lines.push('');
  }
  return `${lines.join('\n')}`;
}

/** A finding as `meshdx findings --json` lists it. */
export function findingJson(f: Finding) {
  return {
    code: f.code,
    severity: f.severity,
    subject: {
      kind: f.subject.kind,
      namespace: f.subject.namespace ?? null,
      name: f.subject.name,
    },
    ...(f.part ? { part: f.part } : {}),
    evidence: f.evidence,
    fix: f.fix ?? null,
  };
}

/** How many findings were suppressed, and by what (one line per rule or annotation). */
export function suppressedText(total: number, counts: readonly SuppressedCount[]): string {
  return `${total} suppressed:\n${counts.map((c) => `  ${c.count} by ${c.by}\n`).join('')}`;
}
