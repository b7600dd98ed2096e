'use client';

import { useQuery } from '@tanstack/react-query';
import dynamic from 'next/dynamic';
import type { TimelineFleet, TimelinePagedFleet } from '../../lib/api/timelines';
import { timelineQueryOfView } from '../../lib/timeline/fleet-page';
import { QueryBoundary } from '../data/QueryBoundary';
import { useViewState } from '../data/useViewState';
import { Card, Stat } from '../ui/Card';
import { FilterBar, NamespaceWorkloadFilters, SelectFilter, TextFilter } from '../ui/Filters';
import { VirtualTable } from '../ui/VirtualTable';
import { LateNote } from '../ui/LateNote';
import { Pager } from '../ui/Pager';
import { FLEET_COLUMNS } from './columns';
import { FixList } from './FixList';
import { gapChartHeight, gapData } from './gap-data';
import { statTone, VERDICT_ORDER } from './format';
import { ModesCard } from './ModesCard';
import { PodTimelineCard } from './PodTimelineCard';
import { TimelineGroups } from './TimelineGroups';
import { timelineFleetQuery } from './queries';
import { useClusterContext } from '../data/useClusterContext';
import { podKeyOf, tryParsePodRef } from '../../lib/refs/pod-ref';
import { ShareButton } from '../snapshots/ShareButton';

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

function MeshNote({ f }: { f: TimelineFleet }) {
  const hold = f.mesh.holdApplicationUntilProxyStarts;
  return (
    <p className="text-xs text-slate-500" data-testid="mesh-note">
      Mesh config: {f.mesh.from}
      {hold === null ? '' : `, holdApplicationUntilProxyStarts: ${hold}`}
      {f.mesh.errors.length ? ` (${f.mesh.errors.join('; ')})` : ''}. Watching pods:{' '}
      {f.cache.podsWatch}, events: {f.cache.eventsWatch}. {f.cache.deletedPods} deleted pod(s) kept
      in {f.cache.history}
      {f.cache.evictedPods ? `, ${f.cache.evictedPods} older ones forgotten` : ''}.
    </p>
  );
}

function Fleet({ f }: { f: TimelinePagedFleet }) {
  const [state, update] = useViewState('timelines');
  // the server filtered, sorted and paged the rows; the counts are of every matching pod
  const { counts, namespaces, workloads, matched, offset, limit } = f.page;
  const pod = state.pod ? tryParsePodRef(state.pod) : null;
  return (
    <div className="space-y-4">
      <ShareButton view="timelines" />
      <LateNote late={f.late} />
      <div className="grid grid-cols-2 gap-3 md:grid-cols-5 xl:grid-cols-7">
        <Stat label="Meshed pods" value={counts.pods.toLocaleString('en-US')} testId="stat-pods" />
        {VERDICT_ORDER.map((v) => (
          <button
            key={v}
            type="button"
            className="text-left"
            onClick={() =>
              update({ verdict: state.verdict === v ? undefined : v, page: undefined })
            }
          >
            <Stat
              label={v}
              value={(counts.byVerdict[v] ?? 0).toLocaleString('en-US')}
              tone={(counts.byVerdict[v] ?? 0) === 0 ? 'neutral' : statTone(v)}
              testId={`stat-verdict-${v}`}
            />
          </button>
        ))}
        <Stat
          label="deleted"
          value={counts.deleted.toLocaleString('en-US')}
          testId="stat-deleted"
        />
      </div>
      <MeshNote f={f} />
      <TimelineGroups groups={f.page.groups} />
      <ModesCard
        info={f.injection}
        modes={f.modes}
        namespace={state.namespace}
        total={f.page.modesMatched}
      />
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
      <FilterBar>
        <NamespaceWorkloadFilters
          namespaces={namespaces}
          workloads={workloads}
          namespace={state.namespace}
          workload={state.workload}
          update={update}
        />
        <SelectFilter
          label="Verdict"
          value={state.verdict}
          options={VERDICT_ORDER.map((v) => ({ value: v, label: v }))}
          onChange={(v) => update({ verdict: v, page: undefined })}
          testId="filter-verdict"
        />
        <TextFilter
          label="Search pod"
          value={state.q}
          onChange={(v) => update({ q: v, page: undefined })}
          testId="filter-q"
        />
        <TextFilter
          label="Alive from (RFC 3339)"
          value={state.from}
          placeholder="2026-11-01T12:00:00Z"
          onChange={(v) => update({ from: v, page: undefined })}
          testId="filter-from"
        />
        <TextFilter
          label="Alive to (RFC 3339)"
          value={state.to}
          placeholder="2026-11-01T13:00:00Z"
          onChange={(v) => update({ to: v, page: undefined })}
          testId="filter-to"
        />
      </FilterBar>
      <VirtualTable
        testId="pods-table"
        rows={f.rows}
        columns={FLEET_COLUMNS}
        rowKey={(r) => podKeyOf(r)}
        sort={state.sort ?? 'verdict'}
        dir={state.dir ?? 'asc'}
        onSort={(sort, dir) => update({ sort, dir, page: undefined })}
        selectedKey={state.pod}
        onSelect={(r) => update({ pod: podKeyOf(r) })}
        empty="No meshed pods match these filters."
      />
      <Pager
        offset={offset}
        shown={f.rows.length}
        limit={limit}
        matched={matched}
        onPage={(page) => update({ page: page > 1 ? String(page) : undefined })}
        testId="timelines-pager"
      />
      {pod && <PodTimelineCard namespace={pod.namespace} name={pod.name} />}
    </div>
  );
}

/** Every meshed pod's startup mode and verdict, the gap per workload, fixes, and one pod's Gantt. */
export function TimelinesView() {
  const ctx = useClusterContext();
  const [state] = useViewState('timelines');
  const query = useQuery(timelineFleetQuery(ctx, timelineQueryOfView(state)));
  return (
    <QueryBoundary query={query} what="timelines">
      {(f) => <Fleet f={f} />}
    </QueryBoundary>
  );
}
