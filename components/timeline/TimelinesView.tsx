'use client';

import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { TimelineFleet } from '../../lib/api/timelines';
import { QueryBoundary } from '../data/QueryBoundary';
import { aliveDuring } from '../../lib/timeline/window';
import { useViewState } from '../data/useViewState';
import { Card, Stat } from '../ui/Card';
import { FilterBar, SelectFilter, TextFilter } from '../ui/Filters';
import { VirtualTable } from '../ui/VirtualTable';
import { FLEET_COLUMNS } from './columns';
import { FixList } from './FixList';
import { GapChart } from './GapChart';
import { statTone, VERDICT_ORDER } from './format';
import { ModesCard } from './ModesCard';
import { PodTimelineCard } from './PodTimelineCard';
import { TimelineGroups } from './TimelineGroups';
import { timelineFleetQuery } from './queries';
import { useClusterContext } from '../data/useClusterContext';

type State = ReturnType<typeof useViewState<'timelines'>>[0];

function filterRows(f: TimelineFleet, s: State) {
  const q = s.q?.toLowerCase();
  return f.rows.filter(
    (r) =>
      (!s.namespace || r.namespace === s.namespace) &&
      (!s.workload || r.workload === s.workload) &&
      (!s.verdict || r.verdicts.includes(s.verdict as (typeof r.verdicts)[number])) &&
      (!q || r.name.includes(q)) &&
      aliveDuring(r, s.from, s.to),
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

function Fleet({ f }: { f: TimelineFleet }) {
  const [state, update] = useViewState('timelines');
  const rows = useMemo(() => filterRows(f, state), [f, state]);
  const namespaces = useMemo(
    () => [...new Set(f.rows.map((r) => r.namespace))].sort().map((n) => ({ value: n, label: n })),
    [f],
  );
  const workloads = useMemo(
    () =>
      [
        ...new Set(
          f.rows
            .filter((r) => !state.namespace || r.namespace === state.namespace)
            .map((r) => r.workload),
        ),
      ]
        .sort()
        .map((w) => ({ value: w, label: w })),
    [f, state.namespace],
  );
  const fixes = f.fixes.filter(
    (x) =>
      (!state.namespace || x.namespace === state.namespace) &&
      (!state.workload || x.name === state.workload) &&
      (!state.verdict || x.verdict === state.verdict),
  );
  const gapWorkloads = f.workloads.filter(
    (w) =>
      (!state.namespace || w.namespace === state.namespace) &&
      (!state.workload || w.name === state.workload),
  );
  const deleted = f.rows.filter((r) => r.deleted).length;
  const pod = state.pod?.split('/');
  return (
    <div className="space-y-4">
      <div className="grid grid-cols-2 gap-3 md:grid-cols-5 xl:grid-cols-7">
        <Stat label="Meshed pods" value={f.pods.toLocaleString('en-US')} testId="stat-pods" />
        {VERDICT_ORDER.map((v) => (
          <button
            key={v}
            type="button"
            className="text-left"
            onClick={() => update({ verdict: state.verdict === v ? undefined : v })}
          >
            <Stat
              label={v}
              value={(f.byVerdict[v] ?? 0).toLocaleString('en-US')}
              tone={(f.byVerdict[v] ?? 0) === 0 ? 'neutral' : statTone(v)}
              testId={`stat-verdict-${v}`}
            />
          </button>
        ))}
        <Stat label="deleted" value={deleted} testId="stat-deleted" />
      </div>
      <MeshNote f={f} />
      <TimelineGroups f={f} namespace={state.namespace} />
      <ModesCard info={f.injection} modes={f.modes} namespace={state.namespace} />
      <div className="grid gap-4 xl:grid-cols-2">
        <Card title="Startup gap per workload (first app start − proxy ready)" testId="gap-card">
          <GapChart workloads={gapWorkloads} />
        </Card>
        <Card title="Fixes per workload" testId="fixes-card">
          <div className="max-h-[560px] overflow-y-auto pr-1">
            <FixList fixes={fixes} />
          </div>
        </Card>
      </div>
      <FilterBar>
        <SelectFilter
          label="Namespace"
          value={state.namespace}
          options={namespaces}
          onChange={(v) => update({ namespace: v, workload: undefined })}
          testId="filter-namespace"
        />
        <SelectFilter
          label="Workload"
          value={state.workload}
          options={workloads}
          onChange={(v) => update({ workload: v })}
          testId="filter-workload"
        />
        <SelectFilter
          label="Verdict"
          value={state.verdict}
          options={VERDICT_ORDER.map((v) => ({ value: v, label: v }))}
          onChange={(v) => update({ verdict: v })}
          testId="filter-verdict"
        />
        <TextFilter
          label="Search pod"
          value={state.q}
          onChange={(v) => update({ q: v })}
          testId="filter-q"
        />
        <TextFilter
          label="Alive from (RFC 3339)"
          value={state.from}
          placeholder="2026-11-01T12:00:00Z"
          onChange={(v) => update({ from: v })}
          testId="filter-from"
        />
        <TextFilter
          label="Alive to (RFC 3339)"
          value={state.to}
          placeholder="2026-11-01T13:00:00Z"
          onChange={(v) => update({ to: v })}
          testId="filter-to"
        />
      </FilterBar>
      <VirtualTable
        testId="pods-table"
        rows={rows}
        columns={FLEET_COLUMNS}
        rowKey={(r) => `${r.namespace}/${r.name}`}
        sort={state.sort ?? 'verdict'}
        dir={state.dir ?? 'asc'}
        onSort={(sort, dir) => update({ sort, dir })}
        selectedKey={state.pod}
        onSelect={(r) => update({ pod: `${r.namespace}/${r.name}` })}
        empty="No meshed pods match these filters."
      />
      {pod?.[0] && pod[1] && <PodTimelineCard namespace={pod[0]} name={pod[1]} />}
    </div>
  );
}

/** Every meshed pod's startup mode and verdict, the gap per workload, fixes, and one pod's Gantt. */
export function TimelinesView() {
  const ctx = useClusterContext();
  const query = useQuery(timelineFleetQuery(ctx));
  return (
    <QueryBoundary query={query} what="timelines">
      {(f) => <Fleet f={f} />}
    </QueryBoundary>
  );
}
