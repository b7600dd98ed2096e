'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { findingsQuery } from '../findings/api';
import { useFindingsFollow } from '../findings/useFindingsFollow';
import { QueryBoundary } from '../data/QueryBoundary';
import { countByCode, severityTotals } from '../findings/summary';
import { counted } from '../../lib/text-list';
import { Badge, Card } from '../ui/Card';
import { useClusterContext } from '../data/useClusterContext';
import { withContext } from '../../lib/api/context';
import { ReportTime } from '../ui/ReportTime';

const TONE = { error: 'bad', warning: 'warn', info: 'info' } as const;
/** Codes shown here; the rest are one click away on Findings. */
const SHOWN = 8;

/**
 * What needs attention first: the findings of every view counted per code, worst first, each a
 * link to Findings filtered to that code. Loaded after the inventory, so the overview never
 * waits for the slower analyses.
 */
export function AttentionCard() {
  const ctx = useClusterContext();
  const query = useQuery(findingsQuery(ctx));
  // a configuration change heard by the server brings the next report
  useFindingsFollow(ctx, query.data);
  return (
    <Card title="Needs attention (all views, worst first)" testId="attention-card">
      <QueryBoundary query={query} what="findings">
        {(report) => {
          const codes = report.groups
            ? report.groups.map((g) => ({
                code: g.code,
                title: g.title,
                severity: g.severity,
                count: g.count,
              }))
            : countByCode(report.findings, report.catalog);
          const pending = report.late ?? [];
          const partial =
            pending.length > 0 ? (
              <p className="text-xs text-amber-800" role="status" data-testid="attention-partial">
                Findings so far; still being read: {pending.map((l) => l.part).join(', ')}. This
                card fills in as they finish.
              </p>
            ) : null;
          if (codes.length === 0)
            return (
              <div className="space-y-2">
                {partial}
                <p className="text-sm text-slate-500">
                  {pending.length > 0
                    ? 'No findings in what is read so far.'
                    : 'No findings: nothing to fix.'}
                </p>
              </div>
            );
          const bySeverity = severityTotals(report.findings);
          return (
            <div className="space-y-2">
              {partial}
              <ReportTime at={report.generatedAt} what="Findings" />
              <p className="text-xs text-slate-600" data-testid="attention-totals">
                {counted(bySeverity.error, 'error')}, {counted(bySeverity.warning, 'warning')},{' '}
                {counted(bySeverity.info, 'note')} in {counted(codes.length, 'kind')} of finding.
              </p>
              <ul className="grid gap-1 md:grid-cols-2">
                {codes.slice(0, SHOWN).map((c) => (
                  <li key={c.code} data-attention-code={c.code}>
                    <Link
                      href={withContext(`/findings?code=${encodeURIComponent(c.code)}`, ctx)}
                      className="text-sm hover:underline"
                    >
                      <Badge tone={TONE[c.severity]}>{c.count}</Badge>{' '}
                      <span className="font-mono text-xs">{c.code}</span> {c.title}
                    </Link>
                  </li>
                ))}
              </ul>
              {codes.length > SHOWN && (
                <Link
                  href={withContext('/findings', ctx)}
                  className="text-xs text-sky-700 hover:underline"
                >
                  {counted(codes.length - SHOWN, 'more kind')} on Findings
                </Link>
              )}
            </div>
          );
        }}
      </QueryBoundary>
    </Card>
  );
}
