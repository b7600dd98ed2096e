'use client';

import type { TimelinePagedFleet } from './api';
import { podKeyOf } from '../../lib/refs/pod-ref';
import { LateNote } from '../ui/LateNote';
import { VirtualTable } from '../ui/VirtualTable';
import { FLEET_COLUMNS } from '../timeline/columns';
import { TimelineGroups } from '../timeline/TimelineGroups';
import { FleetStats, GapAndFixes } from '../timeline/FleetCards';

/** A frozen Timelines page: the same cards and table as the live view, without its controls. */
export function FrozenTimelines({ f }: { f: TimelinePagedFleet }) {
  const { counts, matched, offset } = f.page;
  return (
    <div className="space-y-4" data-testid="frozen-timelines">
      <LateNote late={f.late} />
      <FleetStats counts={counts} />
      <TimelineGroups groups={f.page.groups} />
      <GapAndFixes f={f} />
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
