'use client';

import { useQuery } from '@tanstack/react-query';
import { QueryBoundary } from '../data/QueryBoundary';
import { shortTime } from '../inventory/format';
import { Badge, Card } from '../ui/Card';
import { PodLink } from '../inventory/PodLink';
import { DrainOrderTable } from './DrainOrderTable';
import { FixBlock } from './FixBlock';
import { GanttChart } from './GanttChart';
import { gapText, VERDICT_HELP, VERDICT_TONE } from './format';
import { podTimelineQuery, type PodTimelineView } from './api';
import { useClusterContext } from '../data/useClusterContext';
import { Evidence } from '../ui/Evidence';

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="text-sm">{children}</dd>
    </div>
  );
}

function Facts({ v }: { v: PodTimelineView }) {
  const r = v.proxyReady;
  return (
    <dl className="mb-3 grid grid-cols-2 gap-2 md:grid-cols-6">
      <Fact label="Workload">
        {v.workloadKind}/{v.workload}
      </Fact>
      <Fact label="Startup mode">
        <span title={v.modeReasons.join('; ')}>{v.mode}</span>
      </Fact>
      <Fact label="Proxy ready">
        <span data-testid="proxy-ready">
          {shortTime(r.at)}{' '}
          <span className="text-xs text-slate-500">
            ({r.source}, {r.confidence}
            {r.upperBoundOnly ? ', upper bound' : ''})
          </span>
        </span>
      </Fact>
      <Fact label="First app start">{shortTime(v.appStartedAt)}</Fact>
      <Fact label="App start − proxy ready">
        <span className={v.gapMs !== null && v.gapMs < 0 ? 'font-semibold text-red-700' : ''}>
          {gapText(v.gapMs)}
        </span>
      </Fact>
      <Fact label="Restarts">{v.restarts}</Fact>
    </dl>
  );
}

function Verdicts({ v }: { v: PodTimelineView }) {
  if (v.excluded && v.verdicts.length === 0)
    return <p className="text-sm text-slate-600">{v.excluded}</p>;
  return (
    <div className="space-y-3">
      {v.excluded && <p className="text-sm text-slate-600">{v.excluded}</p>}
      {v.verdicts.map((x) => (
        <div key={x.code + x.verdict} className="rounded border border-slate-200 p-2">
          <div className="mb-1 text-sm">
            <Badge tone={VERDICT_TONE[x.verdict] ?? 'neutral'}>{x.verdict}</Badge>{' '}
            <span className="text-xs text-slate-600">
              {x.code} ({x.phase}, {x.confidence} confidence): {VERDICT_HELP[x.verdict]}
            </span>
          </div>
          <p className="mb-1">
            <Evidence evidence={x.evidence} className="text-[11px] text-slate-500" />
          </p>
          {x.fixes.slice(0, 1).map((f, i) => (
            <FixBlock key={i} fix={f} testId={i === 0 ? `pod-fix-${x.verdict}` : undefined} />
          ))}
          {x.fixes.length > 1 && (
            <details className="mt-1 text-xs">
              <summary className="cursor-pointer text-slate-600">
                {x.fixes.length - 1} other fix{x.fixes.length > 2 ? 'es' : ''}
              </summary>
              <div className="mt-1 space-y-2">
                {x.fixes.slice(1).map((f, i) => (
                  <FixBlock key={i} fix={f} />
                ))}
              </div>
            </details>
          )}
        </div>
      ))}
    </div>
  );
}

function Markers({ v }: { v: PodTimelineView }) {
  return (
    <table className="mt-3 w-full text-xs" data-testid="gantt-markers">
      <thead className="text-left text-slate-500">
        <tr>
          <th>Time</th>
          <th>Mark</th>
          <th>Container</th>
          <th>Source</th>
          <th>Confidence</th>
          <th>Detail</th>
        </tr>
      </thead>
      <tbody>
        {v.gantt.markers.map((m, i) => (
          <tr key={i} className="border-t border-slate-100 align-top">
            <td className="whitespace-nowrap py-0.5 font-mono">{shortTime(m.time)}</td>
            <td>{m.kind}</td>
            <td className="font-mono">{m.container ?? '–'}</td>
            <td>{m.source}</td>
            <td>{m.confidence}</td>
            <td className="max-w-md truncate" title={m.label}>
              {m.label ?? ''}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The selected pod: facts, verdicts with their fixes, and the Gantt of its containers. */
export function PodTimelineCard({
  namespace,
  name,
  uid,
}: {
  namespace: string;
  name: string;
  /** That pod of the name (a deleted one whose namesake now runs); null: the name's pod. */
  uid: string | null;
}) {
  const ctx = useClusterContext();
  const query = useQuery(podTimelineQuery(ctx, namespace, name, uid));
  return (
    <Card
      title={
        <span data-testid="pod-detail-title" data-deleted={query.data?.deleted ?? undefined}>
          <PodLink pod={{ namespace, name, uid: query.data?.uid ?? uid }} />{' '}
          {query.data?.deleted && (
            <Badge tone="warn">
              deleted {shortTime(query.data.deletedAt)}
              {query.data.deletedUncertain ? ' (or earlier)' : ''}
            </Badge>
          )}
        </span>
      }
      testId="pod-detail"
    >
      <QueryBoundary query={query} what="the pod's timeline">
        {(v) => (
          <div>
            <Facts v={v} />
            <div className="overflow-x-auto">
              <GanttChart gantt={v.gantt} />
            </div>
            <div className="mt-3">
              <Verdicts v={v} />
            </div>
            {v.drainOrder && <DrainOrderTable order={v.drainOrder} />}
            <Markers v={v} />
            <p className="mt-2 text-[11px] text-slate-500">
              Built from the pod&apos;s status, {v.inputs.events} event(s) and{' '}
              {v.inputs.transitions} watched transition(s).{' '}
              {[...v.proxyReady.notes, ...v.notes].join('; ')}
            </p>
          </div>
        )}
      </QueryBoundary>
    </Card>
  );
}
