'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { refList } from '../../lib/api/viewstate';
import { mergeLive } from '../../lib/incidents/live';
import { inventoryQuery, podListQuery } from '../inventory/api';
import { clientPickerQuery, incidentsQuery, type IncidentsView as View } from './api';
import { QueryBoundary } from '../data/QueryBoundary';
import { useViewState } from '../data/useViewState';
import { FilterBar, SelectFilter, TextFilter } from '../ui/Filters';
import { IncidentReport } from './IncidentReport';
import { IpHolders } from './IpHolders';
import { UploadPanel } from './UploadPanel';
import { useClusterContext } from '../data/useClusterContext';
import { WindowBar } from './WindowBar';
import { LIVE_CAP, useLiveIncidents } from './useLiveIncidents';
import { podKeyOf } from '../../lib/refs/pod-ref';
import { ShareButton } from '../snapshots/ShareButton';

/**
 * The 503 incident: failing requests from the client proxies' access logs, each tied to the pod
 * that held the upstream IP at that moment (even when it is gone), with the config that would
 * have prevented it. Every filter is in the URL, so the link reopens the same picture. Live mode
 * follows the clients' logs from the end of the shown window on.
 */
export function IncidentsView() {
  const [state, update] = useViewState('incidents');
  const ctx = useClusterContext();
  const inventory = useQuery(inventoryQuery(ctx));
  const proxies = useQuery(podListQuery(ctx, clientPickerQuery(state.namespace)));
  const [live, setLive] = useState(false);
  // while live, the snapshot stays as it was: new lines arrive through the stream only
  const incidents = useQuery({
    ...incidentsQuery(ctx, state),
    ...(live ? { staleTime: Infinity, refetchOnWindowFocus: false } : {}),
  });
  const [paused, setPaused] = useState(false);
  const asked = refList(state.client);
  const namespaces =
    inventory.data?.namespaces.map((n) => ({ value: n.name, label: n.name })) ?? [];
  const clients =
    proxies.data?.pods.map((p) => ({
      value: podKeyOf(p),
      label: podKeyOf(p),
    })) ?? [];
  const setClients = (list: string[]) => update({ client: list.join(',') || undefined });
  return (
    <div className="space-y-4">
      <FilterBar>
        <SelectFilter
          label="Namespace"
          value={state.namespace}
          options={namespaces}
          onChange={(v) => update({ namespace: v, client: undefined })}
          testId="filter-namespace"
        />
        <SelectFilter
          label={asked.length > 1 ? 'Add a client proxy' : 'Client proxy (logs + stale endpoints)'}
          value={asked.length === 1 ? asked[0] : undefined}
          options={clients.filter((c) => asked.length < 2 || !asked.includes(c.value))}
          onChange={(v) => setClients(v ? (asked.length > 1 ? [...asked, v] : [v]) : [])}
          testId="filter-client"
        />
        <TextFilter
          label="Service"
          value={state.service}
          placeholder="payments or payments.shop.svc.cluster.local"
          onChange={(v) => update({ service: v })}
          testId="filter-service"
        />
        <TextFilter
          label="Upstream IP"
          value={state.ip}
          placeholder="10.10.10.10"
          onChange={(v) => update({ ip: v })}
          testId="filter-ip"
        />
        <TextFilter
          label="From (RFC 3339)"
          value={state.from}
          placeholder="2026-01-01T10:00:00Z"
          onChange={(v) => update({ from: v })}
          testId="filter-from"
        />
        <TextFilter
          label="To (RFC 3339)"
          value={state.to}
          placeholder="2026-01-01T11:00:00Z"
          onChange={(v) => update({ to: v })}
          testId="filter-to"
        />
      </FilterBar>
      {proxies.data?.truncated && (
        <p className="no-print text-xs text-slate-700" data-testid="client-picker-truncated">
          The client list shows the first {proxies.data.pods.length.toLocaleString('en')} of{' '}
          {proxies.data.total.toLocaleString('en')} pods with a proxy
          {state.namespace ? ` in ${state.namespace}` : ''}: pick a namespace to narrow it.
        </p>
      )}
      {asked.length > 1 && (
        <ul className="no-print flex flex-wrap gap-2 text-xs" data-testid="client-chips">
          {asked.map((c) => (
            <li key={c} className="flex items-center gap-1 rounded bg-slate-100 px-2 py-0.5">
              <span className="font-mono">{c}</span>
              <button
                type="button"
                className="rounded px-1 text-slate-700 hover:bg-slate-200"
                aria-label={`Stop reading ${c}`}
                onClick={() => setClients(asked.filter((x) => x !== c))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <ShareButton view="incidents" />
      {state.ip && <IpHolders ip={state.ip} context={ctx} />}
      <QueryBoundary query={incidents} what="the incident">
        {(view) => (
          <Shown
            view={view}
            context={ctx}
            state={state}
            live={live}
            paused={paused}
            onLive={(on) => {
              setLive(on);
              setPaused(false);
            }}
            onPause={setPaused}
            onZoom={(from, to) => update({ from, to }, { push: true })}
            onWindow={(from, to) => update({ from, to })}
            onAddClient={(pod) => {
              // read the clients that showed failures, and this one
              const failing = view.sources.filter((s) => s.failing > 0).map((s) => s.source);
              setClients([...new Set([...asked, ...failing, pod])]);
            }}
          />
        )}
      </QueryBoundary>
      <UploadPanel state={state} />
    </div>
  );
}

function Shown({
  view,
  context,
  state,
  live,
  paused,
  onLive,
  onPause,
  onZoom,
  onWindow,
  onAddClient,
}: {
  view: View;
  context: string | null;
  state: ReturnType<typeof useViewState<'incidents'>>[0];
  live: boolean;
  paused: boolean;
  onLive: (on: boolean) => void;
  onPause: (p: boolean) => void;
  onZoom: (from: string, to: string) => void;
  onWindow: (from: string | undefined, to: string | undefined) => void;
  onAddClient: (pod: string) => void;
}) {
  const followed = view.clients.chosen.map((c) => c.pod).join(',');
  const session = useLiveIncidents(
    context,
    { client: followed || undefined, service: state.service, ip: state.ip },
    { enabled: live, paused, since: view.generatedAt },
  );
  const shown = live
    ? mergeLive(view, session.buffer, { stats: session.stats, markers: session.markers })
    : view;
  return (
    <>
      <WindowBar
        view={shown}
        urlWindow={{ from: state.from, to: state.to }}
        onWindow={onWindow}
        live={
          live
            ? {
                status: session.status,
                received: session.buffer.received,
                dropped: session.buffer.dropped,
                lines: session.stats.lines,
                problems: session.problems,
                error: session.error,
              }
            : null
        }
        liveControls={{
          on: live,
          paused,
          canLive: view.clients.chosen.length > 0,
          onLive,
          onPause,
        }}
      />
      <IncidentReport
        view={shown}
        onZoom={live ? undefined : onZoom}
        onAddClient={onAddClient}
        newestFirst={live}
        chartNote={
          live
            ? `Live: the chart counts every failing request of the window, the snapshot's and the ${session.buffer.received.toLocaleString('en')} that arrived since (bins grow coarser as the session grows; the table below holds the newest ${LIVE_CAP.toLocaleString('en')}).`
            : undefined
        }
      />
    </>
  );
}
