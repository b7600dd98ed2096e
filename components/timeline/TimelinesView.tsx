'use client';

import { useQuery } from '@tanstack/react-query';
import dynamic from 'next/dynamic';
import { timelineQueryOfView } from '../../lib/timeline/fleet-page';
import { QueryBoundary } from '../data/QueryBoundary';
import { useViewState } from '../data/useViewState';
import { FilterBar, NamespaceWorkloadFilters, SelectFilter, TextFilter } from '../ui/Filters';
import { VirtualTable } from '../ui/VirtualTable';
import { LateNote } from '../ui/LateNote';
import { OpensInView } from '../ui/OpensInView';
import { Pager } from '../ui/Pager';
import { FLEET_COLUMNS } from './columns';
import { VERDICT_ORDER } from './format';
import { ModesCard } from './ModesCard';
import { TimelineGroups } from './TimelineGroups';
import { FleetStats, GapAndFixes } from './FleetCards';
import { timelineFleetQuery, type TimelinePagedFleet } from './api';
import { useClusterContext } from '../data/useClusterContext';
import { podIdKey, podKeyOf, tryParsePodRef } from '../../lib/refs/pod-ref';
import { ShareButton } from '../snapshots/ShareButton';

/**
 * One pod's timeline, with its Gantt chart (the chart library is the largest script of the
 * view): loaded when a pod is opened, not before the fleet's table can be used. A link that opens
 * a pod has it rendered on the server as before.
 */
const PodTimelineCard = dynamic(() => import('./PodTimelineCard').then((m) => m.PodTimelineCard));

/**
 * The kept deleted pods in words, with the same figure as the Deleted card: the store keeps every
 * deleted pod, the fleet (and its card) those with a sidecar, the card those matching the filters.
 */
function deletedText(f: TimelinePagedFleet): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const kept = f.cache.deletedPods;
  const meshed = f.page.deletedInFleet;
  const shown = f.page.counts.deleted;
  const head = `${n(kept)} deleted pod${kept === 1 ? '' : 's'} kept in ${f.cache.history}`;
  if (kept === meshed && shown === meshed) return `${head} (the Deleted card)`;
  const card =
    shown === meshed ? ' (the Deleted card)' : `; ${n(shown)} match the filters (the Deleted card)`;
  const rest = kept > meshed ? `, ${n(kept - meshed)} without a sidecar (not in the fleet)` : '';
  return `${head}: ${n(meshed)} with a sidecar${shown === meshed ? card : ''}${rest}${shown === meshed ? '' : card}`;
}

function MeshNote({ f }: { f: TimelinePagedFleet }) {
  const hold = f.mesh.holdApplicationUntilProxyStarts;
  return (
    <p className="text-xs text-slate-500" data-testid="mesh-note">
      Mesh config: {f.mesh.from}
      {hold === null ? '' : `, holdApplicationUntilProxyStarts: ${hold}`}
      {f.mesh.errors.length ? ` (${f.mesh.errors.join('; ')})` : ''}. Watching pods:{' '}
      {f.cache.podsWatch}, events: {f.cache.eventsWatch}.{' '}
      <span
        data-testid="deleted-note"
        data-kept={f.cache.deletedPods}
        data-in-fleet={f.page.deletedInFleet}
        data-shown={f.page.counts.deleted}
      >
        {deletedText(f)}
      </span>
      {f.cache.evictedPods ? `, ${f.cache.evictedPods} older ones forgotten` : ''}.
    </p>
  );
}

/**
 * The row of the selected pod: by its uid when the link has one (a name may be held by a deleted
 * pod and its live namesake, two rows); else the row of the name the card shows, the live pod
 * before a deleted one.
 */
function selectedRowKey(
  rows: readonly TimelinePagedFleet['rows'][number][],
  pod: string | undefined,
  uid: string | undefined,
): string | undefined {
  if (pod === undefined) return undefined;
  if (uid !== undefined) return uid;
  const named = rows.filter((r) => podKeyOf(r) === pod);
  const row = named.find((r) => !r.deleted) ?? named[0];
  return row ? podIdKey(row) : pod;
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
      <FleetStats
        counts={counts}
        onVerdict={(v) => update({ verdict: state.verdict === v ? undefined : v, page: undefined })}
      />
      <MeshNote f={f} />
      <TimelineGroups groups={f.page.groups} />
      <ModesCard
        info={f.injection}
        modes={f.modes}
        namespace={state.namespace}
        total={f.page.modesMatched}
      />
      <GapAndFixes f={f} />
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
        rowKey={podIdKey}
        sort={state.sort ?? 'verdict'}
        dir={state.dir ?? 'asc'}
        onSort={(sort, dir) => update({ sort, dir, page: undefined })}
        selectedKey={selectedRowKey(f.rows, state.pod, state.uid)}
        onSelect={(r) => update({ pod: podKeyOf(r), uid: r.uid ?? undefined })}
        empty="No meshed pods match these filters."
        label="Meshed pods"
      />
      <Pager
        offset={offset}
        shown={f.rows.length}
        limit={limit}
        matched={matched}
        onPage={(page) => update({ page: page > 1 ? String(page) : undefined })}
        testId="timelines-pager"
      />
      {pod && (
        <OpensInView openKey={`${state.pod ?? ''} ${state.uid ?? ''}`}>
          <PodTimelineCard namespace={pod.namespace} name={pod.name} uid={state.uid ?? null} />
        </OpensInView>
      )}
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
