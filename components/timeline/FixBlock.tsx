'use client';

import type { z } from 'zod';
import type { FixSchema } from './api';
import { CopyButton } from './CopyButton';

type Fix = z.infer<typeof FixSchema>;

/** One fix: its one-line why and, when there is one, the YAML with a copy button. */
export function FixBlock({ fix, testId }: { fix: Fix; testId?: string }) {
  return (
    <div className="space-y-1" data-testid={testId}>
      <div className="flex items-start justify-between gap-2">
        <p className="text-xs text-slate-700">{fix.why}</p>
        {fix.yaml && <CopyButton text={fix.yaml} testId={testId ? `${testId}-copy` : undefined} />}
      </div>
      {fix.yaml && (
        <pre
          tabIndex={0}
          className="overflow-x-auto rounded bg-slate-900 p-2 font-mono text-[11px] leading-snug text-slate-100"
        >
          {fix.yaml}
        </pre>
      )}
    </div>
  );
}
