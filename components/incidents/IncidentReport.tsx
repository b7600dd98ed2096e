'use client';

import type { IncidentsView } from './api';
import { clock, fmtDuration } from '../../lib/incidents/format';
import { problemText } from '../../lib/parse-problem';
import { Card, Stat } from '../ui/Card';
import { PodLink } from '../inventory/PodLink';
import { IncidentChart } from './IncidentChart';
import { PodsTable, StateBadge } from './PodsTable';
import { Recommendations } from './Recommendations';
import { ClientsCard } from './ClientsCard';
import { tryParsePodRef } from '../../lib/refs/pod-ref';
import { LagCard } from './LagCard';
import { LayersCard } from './LayersCard';
import { MemoryDetail, MemoryNote } from './MemoryNote';

const MAX_SHOWN = 200;

function Summary({ view }: { view: IncidentsView }) {
  const s = view.totals.byState;
  const gone = view.pods.filter((p) => p.state === 'terminated');
  return (
    <div className="grid grid-cols-2 gap-3 md:grid-cols-5" data-testid="incident-summary">
      {view.memory ? (
        // answered from the store: what this answer happened to read is in "Logs read"
        <Stat
          label="Recorded failing (window)"
          value={view.memory.failing}
          testId="stat-recorded"
        />
      ) : (
        <Stat label="Requests read" value={view.totals.records} />
      )}
      <Stat
        label="Failing (5xx / flagged)"
        value={view.totals.shown}
        tone={view.totals.shown ? 'bad' : 'good'}
        testId="stat-failing"
      />
      <Stat
        label="To pods already gone"
        value={s.terminated ?? 0}
        tone={s.terminated ? 'bad' : 'neutral'}
        testId="stat-gone"
      />
      <Stat
        label="To terminating pods"
        value={s.terminating ?? 0}
        tone={s.terminating ? 'warn' : 'neutral'}
      />
      <Stat
        label="Pods involved (gone)"
        value={`${view.pods.length} (${gone.length})`}
        testId="stat-pods-involved"
      />
      <div className="col-span-2 md:col-span-5">
        <MemoryNote memory={view.memory} />
      </div>
    </div>
  );
}

function Requests({ view, newestFirst }: { view: IncidentsView; newestFirst?: boolean }) {
  const rows = newestFirst
    ? view.requests.slice(-MAX_SHOWN).reverse()
    : view.requests.slice(0, MAX_SHOWN);
  return (
    <Card
      title={`Failing requests (${view.totals.shown}${view.totals.shown > rows.length ? `, ${newestFirst ? 'newest' : 'first'} ${rows.length} shown` : ''})`}
      testId="incident-requests"
    >
      <div
        className="max-h-96 overflow-auto print:max-h-none print:overflow-visible"
        tabIndex={0}
        role="region"
        aria-label="Failing requests, scrollable"
      >
        <table className="w-full table-fixed text-left text-xs" data-testid="requests-table">
          <colgroup>
            <col className="w-[5.5rem]" />
            <col className="w-[3.5rem]" />
            <col className="w-[4.5rem]" />
            <col className="w-[11rem]" />
            <col className="w-[7rem]" />
            <col className="w-[9rem]" />
            <col className="w-[12rem]" />
            <col className="w-[11rem]" />
            <col />
          </colgroup>
          <thead className="sticky top-0 bg-white text-slate-600">
            <tr>
              <th scope="col" className="px-2 py-1">
                Time (UTC)
              </th>
              <th scope="col" className="px-2">
                Code
              </th>
              <th scope="col" className="px-2">
                Flags
              </th>
              <th scope="col" className="px-2">
                Client
              </th>
              <th scope="col" className="px-2">
                Service
              </th>
              <th scope="col" className="px-2">
                Upstream
              </th>
              <th scope="col" className="px-2">
                Pod then
              </th>
              <th scope="col" className="px-2">
                State
              </th>
              <th scope="col" className="px-2">
                Why
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr
                key={`${r.source}:${r.line}:${r.time}`}
                className="border-t border-slate-100 align-top [&>td]:truncate [&>td]:px-2"
              >
                <td className="py-0.5 font-mono">{clock(r.time)}</td>
                <td className="tabular-nums">{r.code ?? '–'}</td>
                <td>{r.flags.join(',') || '–'}</td>
                <td className="font-mono" title={r.client ?? undefined}>
                  {clientLink(r.client)}
                </td>
                <td className="font-mono" title={r.service ?? undefined}>
                  {r.service?.split('.')[0] ?? '–'}
                </td>
                <td className="font-mono">{r.upstream ?? '–'}</td>
                <td className="font-mono" title={r.pod?.name}>
                  {r.pod ? <PodLink pod={r.pod}>{r.pod.name}</PodLink> : '–'}
                </td>
                <td>
                  <StateBadge state={r.state} />
                  {r.afterTerminationMs !== null && (
                    <span className="ml-1 text-slate-500">
                      +{fmtDuration(r.afterTerminationMs)}
                    </span>
                  )}
                </td>
                <td className="whitespace-normal! text-slate-600">{r.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <MemoryNote memory={view.memory} />
    </Card>
  );
}

function Sources({ view }: { view: IncidentsView }) {
  const problems = view.sources.filter((s) => s.problem);
  const errors = view.sources.reduce((n, s) => n + s.errors, 0);
  const skipped = view.sources.reduce((n, s) => n + s.skipped, 0);
  return (
    <Card title="Logs read" testId="incident-sources">
      <p className="text-sm text-slate-700">
        {view.sources.length} log{view.sources.length === 1 ? '' : 's'}
        {view.sources.length > 0
          ? ` (${view.sources
              .map((s) => s.source)
              .slice(0, 8)
              .join(', ')}${view.sources.length > 8 ? ', …' : ''})`
          : ''}
        ;{' '}
        <span data-testid="requests-read" data-value={view.totals.records}>
          {view.totals.records.toLocaleString('en')}{' '}
          {view.memory
            ? 'requests of the window read by this view (the store keeps the failing ones of earlier reads, not a count of all)'
            : 'requests in the window'}
        </span>
        , {skipped} proxy log lines skipped, {errors} unreadable line{errors === 1 ? '' : 's'}
        {view.sourcesSkipped
          ? `; ${view.sourcesSkipped} more client proxies not read (limit ${view.clients.limit}, see below)`
          : ''}
        {view.totals.inbound
          ? `; ${view.totals.inbound} failing inbound-side lines not attributed`
          : ''}
        {view.totals.outsideWindow
          ? `; ${view.totals.outsideWindow} failing requests outside the window`
          : ''}
        .
      </p>
      <p className="mt-1 text-xs text-slate-500">
        Pod IP history: {view.history.source}, {view.history.intervals} intervals.{' '}
        {view.history.note}
      </p>
      {problems.map((s) => (
        <p key={s.source} className="mt-1 text-xs text-red-700">
          {s.source}: {s.problem}
        </p>
      ))}
      {view.lineErrors.length > 0 && (
        <ul
          className="mt-2 max-h-40 overflow-auto text-xs text-amber-800"
          tabIndex={0}
          aria-label="Unreadable lines, scrollable"
          data-testid="incident-line-errors"
        >
          {view.lineErrors.slice(0, 50).map((e) => (
            <li key={`${e.source}:${e.line}`}>
              {e.source} {problemText(e)}
            </li>
          ))}
        </ul>
      )}
      {view.memory && <MemoryDetail memory={view.memory} />}
    </Card>
  );
}

function Stale({ stale }: { stale: NonNullable<IncidentsView['stale']> }) {
  return (
    <Card title={`Stale endpoints in ${stale.client}'s proxy`} testId="incident-stale">
      {stale.problem ? (
        <p className="text-sm text-red-700">Could not read its Envoy /clusters: {stale.problem}</p>
      ) : stale.hosts.length === 0 ? (
        <p className="text-sm text-slate-600">
          All {stale.checked} upstream hosts of its Kubernetes-service clusters are in
          EndpointSlices.
        </p>
      ) : (
        <table className="w-full text-left text-xs">
          <thead className="text-slate-500">
            <tr>
              <th className="py-1">Cluster</th>
              <th>Host</th>
              <th>Envoy health</th>
              <th>Last pod with this IP</th>
              <th>Its state now</th>
            </tr>
          </thead>
          <tbody>
            {stale.hosts.map((h) => (
              <tr key={`${h.cluster}/${h.address}`} className="border-t border-slate-100">
                <td className="py-0.5 font-mono">{h.cluster}</td>
                <td className="font-mono">{h.address}</td>
                <td>{h.health ?? '–'}</td>
                <td className="font-mono">{h.lastHolder ?? 'unknown'}</td>
                <td>
                  <StateBadge state={h.state} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}

/** The whole incident picture for one view model (pods' logs or an uploaded log). */
export function IncidentReport({
  view,
  onZoom,
  onAddClient,
  chartNote,
  newestFirst,
}: {
  view: IncidentsView;
  newestFirst?: boolean;
  onZoom?: (from: string, to: string) => void;
  onAddClient?: (pod: string) => void;
  chartNote?: string;
}) {
  return (
    <div className="space-y-4">
      <Summary view={view} />
      <Card title="Failing requests over time" testId="incident-timeline">
        <IncidentChart chart={view.chart} onZoom={onZoom} />
        {chartNote && <p className="mt-1 text-xs text-slate-600">{chartNote}</p>}
        <MemoryNote memory={view.memory} />
      </Card>
      <Card title="Where the failing requests went (pod that held the IP at the time)">
        <PodsTable pods={view.pods} />
        <MemoryNote memory={view.memory} />
      </Card>
      {view.memory && <LagCard view={view} />}
      {view.memory && <LayersCard view={view} />}
      {view.stale && <Stale stale={view.stale} />}
      <Recommendations view={view} />
      <Requests view={view} newestFirst={newestFirst} />
      <Sources view={view} />
      {view.clients.limit > 0 && <ClientsCard clients={view.clients} onAdd={onAddClient} />}
    </div>
  );
}

/** A request's client: a link to its pod's page when it names a pod, else as written. */
function clientLink(client: string | null) {
  const pod = client ? tryParsePodRef(client) : null;
  return pod ? <PodLink pod={pod}>{pod.name}</PodLink> : (client ?? '–');
}
