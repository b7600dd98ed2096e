'use client';

import { useState } from 'react';
import type { WorkloadFix } from './api';
import { Badge } from '../ui/Card';
import { FixBlock } from './FixBlock';
import { VERDICT_HELP, VERDICT_TONE } from './format';
import { workloadKey } from '../../lib/refs/workload-ref';

/**
 * One workload's fix. A closed entry renders its summary only: the YAML of up to 40 fixes was
 * built into the page before its table's first rows, for entries nobody had opened.
 */
function FixEntry({ f, first }: { f: WorkloadFix; first: boolean }) {
  const [open, setOpen] = useState(first);
  return (
    <details
      open={open}
      onToggle={(e) => setOpen(e.currentTarget.open)}
      className="rounded border border-slate-200 p-2"
      data-testid="workload-fix"
    >
      <summary className="cursor-pointer text-sm">
        <Badge tone={VERDICT_TONE[f.verdict] ?? 'neutral'}>{f.verdict}</Badge>{' '}
        <span className="font-mono text-xs">
          {f.namespace}/{f.name}
        </span>{' '}
        <span className="text-xs text-slate-500">
          {f.kind}, {f.pods} pod{f.pods === 1 ? '' : 's'}, {f.code}: {VERDICT_HELP[f.verdict]}
        </span>
      </summary>
      {open && (
        <div className="mt-2 space-y-2">
          {f.fixes.map((fix, j) => (
            <FixBlock
              key={j}
              fix={fix}
              testId={j === 0 ? `fix-${f.name}-${f.verdict}` : undefined}
            />
          ))}
          <p className="text-[11px] text-slate-500">from pod {f.example}</p>
        </div>
      )}
    </details>
  );
}

/**
 * Per workload and verdict: the fix to copy (the first is open). At most `limit` entries; the
 * filters narrow the rest (`total`: how many match, when the server sent only the first ones).
 */
export function FixList({
  fixes,
  limit = 40,
  total = fixes.length,
}: {
  fixes: readonly WorkloadFix[];
  limit?: number;
  total?: number;
}) {
  if (fixes.length === 0) {
    return <p className="text-sm text-slate-500">No workload needs a startup or shutdown fix.</p>;
  }
  const shown = fixes.slice(0, limit);
  return (
    <div className="space-y-2" data-testid="fix-list">
      {shown.map((f, i) => (
        <FixEntry key={`${workloadKey(f)}|${f.verdict}`} f={f} first={i === 0} />
      ))}
      {total > shown.length && (
        <p className="text-xs text-slate-500">
          {(total - shown.length).toLocaleString('en-US')} more: filter by namespace or workload.
        </p>
      )}
    </div>
  );
}
