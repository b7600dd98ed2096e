'use client';

import dynamic from 'next/dynamic';
import type { TimelineFleet, TimelinePagedFleet } from './api';
import { Card, Stat } from '../ui/Card';
import { FixList } from './FixList';
import { statTone, VERDICT_ORDER } from './format';
import { gapChartHeight, gapData } from './gap-data';

/**
 * The chart library loads after the table: the rows an SRE came for do not wait for it. Its
 * place is kept at the chart's height, so nothing below moves when it arrives.
 */
const GapChart = dynamic(() => import('./GapChart').then((m) => m.GapChart), { ssr: false });

function GapChartSlot({ workloads }: { workloads: TimelineFleet['workloads'] }) {
  const shown = gapData(workloads, 24).length;
  return (
    <div style={{ minHeight: shown > 0 ? gapChartHeight(shown) : undefined }}>
      <GapChart workloads={workloads} />
    </div>
  );
}

/**
 * The fleet's counts (meshed pods, each verdict, deleted), as the live view and a frozen one
 * show them; with `onVerdict`, a verdict's card is a button that filters by it.
 */
export function FleetStats({
  counts,
  onVerdict,
}: {
  counts: TimelinePagedFleet['page']['counts'];
  onVerdict?: (verdict: (typeof VERDICT_ORDER)[number]) => void;
}) {
  return (
    <div className="grid grid-cols-2 gap-3 md:grid-cols-5 xl:grid-cols-7">
      <Stat label="Meshed pods" value={counts.pods.toLocaleString('en-US')} testId="stat-pods" />
      {VERDICT_ORDER.map((v) => {
        const stat = (
          <Stat
            key={v}
            label={v}
            value={(counts.byVerdict[v] ?? 0).toLocaleString('en-US')}
            tone={(counts.byVerdict[v] ?? 0) === 0 ? 'neutral' : statTone(v)}
            testId={`stat-verdict-${v}`}
          />
        );
        return onVerdict ? (
          <button key={v} type="button" className="text-left" onClick={() => onVerdict(v)}>
            {stat}
          </button>
        ) : (
          stat
        );
      })}
      <Stat label="deleted" value={counts.deleted.toLocaleString('en-US')} testId="stat-deleted" />
    </div>
  );
}

/** The startup gap per workload beside the fixes per workload. */
export function GapAndFixes({ f }: { f: TimelinePagedFleet }) {
  return (
    <div className="grid gap-4 xl:grid-cols-2">
      <Card title="Startup gap per workload (first app start − proxy ready)" testId="gap-card">
        <GapChartSlot workloads={f.workloads} />
      </Card>
      <Card title="Fixes per workload" testId="fixes-card">
        <div className="max-h-[560px] overflow-y-auto pr-1">
          <FixList fixes={f.fixes} total={f.page.fixesMatched} />
        </div>
      </Card>
    </div>
  );
}
