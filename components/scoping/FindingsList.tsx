'use client';

import type { ScopingReport } from './api';
import { Badge } from '../ui/Card';
import { Evidence } from '../ui/Evidence';

const TONE = { error: 'bad', warning: 'warn', info: 'info' } as const;
const SHOWN = 30;

/** Scoping findings with their codes and evidence; the fix YAML is in the proposals. */
export function FindingsList({
  findings,
  catalog,
}: {
  findings: ScopingReport['findings'];
  catalog: ScopingReport['catalog'];
}) {
  if (findings.length === 0) return <p className="text-sm text-slate-500">No findings.</p>;
  const title = new Map(catalog.map((c) => [c.code, c.title]));
  return (
    <div data-testid="scoping-findings">
      <ul className="space-y-1 text-sm">
        {findings.slice(0, SHOWN).map((f, i) => (
          <li key={i} className="flex flex-wrap items-baseline gap-2">
            <Badge tone={TONE[f.severity]}>{f.code}</Badge>
            <span className="text-slate-800">{title.get(f.code) ?? ''}</span>
            <span className="font-mono text-xs text-slate-600">
              {f.subject.kind} {f.subject.namespace ? `${f.subject.namespace}/` : ''}
              {f.subject.name}
            </span>
            <Evidence evidence={f.evidence} limit={4} />
          </li>
        ))}
      </ul>
      {findings.length > SHOWN && (
        <p className="mt-1 text-xs text-slate-500">
          {findings.length - SHOWN} more on the Findings view.
        </p>
      )}
    </div>
  );
}
