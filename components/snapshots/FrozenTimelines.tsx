'use client';

import type { TimelinePagedFleet } from '../../lib/api/timelines';
import { podKeyOf } from '../../lib/refs/pod-ref';
import { Card, Stat } from '../ui/Card';
import { LateNote } from '../ui/LateNote';
import { VirtualTable } from '../ui/VirtualTable';
import { FLEET_COLUMNS } from '../timeline/columns';
import { FixList } from '../timeline/FixList';
import { GapChart } from '../timeline/GapChart';
import { statTone, VERDICT_ORDER } from '../timeline/format';
import { TimelineGroups } from '../timeline/TimelineGroups';

/** A frozen Timelines page: the same cards and table as the live view, without its controls. */
export function FrozenTimelines({ f }: { f: TimelinePagedFleet }) {
  const { counts, matched, offset } = f.page;
  return (
    <div className="space-y-4" data-testid="frozen-timelines">
      <LateNote late={f.late} />
      <div className="grid grid-cols-2 gap-3 md:grid-cols-5 xl:grid-cols-7">
        <Stat label="Meshed pods" value={counts.pods.toLocaleString('en-US')} testId="stat-pods" />
        {VERDICT_ORDER.map((v) => (
          <Stat
            key={v}
            label={v}
            value={(counts.byVerdict[v] ?? 0).toLocaleString('en-US')}
            tone={(counts.byVerdict[v] ?? 0) === 0 ? 'neutral' : statTone(v)}
            testId={`stat-verdict-${v}`}
          />
        ))}
        <Stat
          label="deleted"
          value={counts.deleted.toLocaleString('en-US')}
          testId="stat-deleted"
        />
      </div>
      <TimelineGroups groups={f.page.groups} />
      <div className="grid gap-4 xl:grid-cols-2">
        <Card title="Startup gap per workload (first app start − proxy ready)" testId="gap-card">
          <GapChart workloads={f.workloads} />
        </Card>
        <Card title="Fixes per workload" testId="fixes-card">
          <div className="max-h-[560px] overflow-y-auto pr-1">
            <FixList fixes={f.fixes} total={f.page.fixesMatched} />
          </div>
        </Card>
      </div>
      <p className="text-xs text-slate-600">
        Rows {matched === 0 ? 0 : offset + 1} to {offset + f.rows.length} of{' '}
        {matched.toLocaleString('en-US')} matching pods, as frozen.
      </p>
      <VirtualTable
        testId="pods-table"
        rows={f.rows}
        columns={FLEET_COLUMNS}
        rowKey={(r) => podKeyOf(r)}
        empty="No meshed pods matched these filters."
      />
    </div>
  );
}
