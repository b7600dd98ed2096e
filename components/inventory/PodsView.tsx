'use client';

import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { PodRow } from '../../lib/api/inventory';
import type { ViewName } from '../../lib/api/viewstate';
import { inventoryQuery } from '../data/queries';
import { QueryBoundary } from '../data/QueryBoundary';
import { useViewState } from '../data/useViewState';
import { Badge, Card } from '../ui/Card';
import { FilterBar, SelectFilter, TextFilter } from '../ui/Filters';
import { VirtualTable, type Column } from '../ui/VirtualTable';
import { ago, shortTime } from './format';

type PodsViewName = Extract<ViewName, 'timelines' | 'proxies'>;

const placementTone = {
  none: 'neutral',
  sidecar: 'info',
  'native-sidecar': 'good',
  gateway: 'warn',
} as const;

function appStart(p: PodRow): string | null {
  const starts = p.containers
    .filter((c) => !c.init && c.name !== 'istio-proxy')
    .map((c) => c.startedAt)
    .filter((s): s is string => Boolean(s));
  return starts.sort()[0] ?? null;
}

const COLUMNS: Column<PodRow>[] = [
  {
    key: 'namespace',
    header: 'Namespace',
    width: '1fr',
    render: (p) => p.namespace,
    sortValue: (p) => p.namespace,
  },
  {
    key: 'name',
    header: 'Pod',
    width: '2.2fr',
    render: (p) => <span className="font-mono text-xs">{p.name}</span>,
    sortValue: (p) => p.name,
  },
  {
    key: 'workload',
    header: 'Workload',
    width: '1.2fr',
    render: (p) => p.workload,
    sortValue: (p) => p.workload,
  },
  {
    key: 'proxy',
    header: 'Proxy',
    width: '1fr',
    render: (p) => <Badge tone={placementTone[p.proxy.placement]}>{p.proxy.placement}</Badge>,
    sortValue: (p) => p.proxy.placement,
  },
  {
    key: 'proxyReady',
    header: 'Proxy ready',
    width: '90px',
    render: (p) =>
      p.proxy.placement === 'none' ? '–' : p.proxy.ready ? 'yes' : <Badge tone="bad">no</Badge>,
    sortValue: (p) => Number(p.proxy.ready),
  },
  {
    key: 'restarts',
    header: 'Restarts',
    width: '80px',
    align: 'right',
    render: (p) => p.containers.reduce((n, c) => n + c.restarts, 0),
    sortValue: (p) => p.containers.reduce((n, c) => n + c.restarts, 0),
  },
  {
    key: 'phase',
    header: 'Phase',
    width: '100px',
    render: (p) => (p.deleting ? <Badge tone="warn">Terminating</Badge> : p.phase),
    sortValue: (p) => p.phase,
  },
  {
    key: 'ip',
    header: 'Pod IP',
    width: '130px',
    render: (p) => <span className="font-mono text-xs">{p.podIP ?? '–'}</span>,
    sortValue: (p) => p.podIP ?? '',
  },
  {
    key: 'age',
    header: 'Age',
    width: '70px',
    align: 'right',
    render: (p) => ago(p.createdAt),
    sortValue: (p) => p.createdAt ?? '',
  },
];

function PodDetail({ pod }: { pod: PodRow }) {
  return (
    <Card title={`${pod.namespace}/${pod.name}`} testId="pod-detail">
      <dl className="mb-3 grid grid-cols-4 gap-2 text-sm">
        <div>
          <dt className="text-xs text-slate-500">Workload</dt>
          <dd>
            {pod.workloadKind}/{pod.workload}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500">Node</dt>
          <dd>{pod.node ?? '–'}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500">Created</dt>
          <dd>{shortTime(pod.createdAt)}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500">First app container start</dt>
          <dd>{shortTime(appStart(pod))}</dd>
        </div>
      </dl>
      <table className="w-full text-sm">
        <thead className="text-left text-xs text-slate-500">
          <tr>
            <th>Container</th>
            <th>Kind</th>
            <th>State</th>
            <th>Ready</th>
            <th>Restarts</th>
            <th>Started</th>
          </tr>
        </thead>
        <tbody>
          {pod.containers.map((c) => (
            <tr key={`${c.init}-${c.name}`} className="border-t border-slate-100">
              <td className="py-1 font-mono text-xs">{c.name}</td>
              <td>{c.init ? 'init' : 'main'}</td>
              <td>
                {c.state}
                {c.reason ? ` (${c.reason})` : ''}
              </td>
              <td>{c.ready ? 'yes' : 'no'}</td>
              <td className="tabular-nums">{c.restarts}</td>
              <td className="font-mono text-xs">{shortTime(c.startedAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}

/** Meshed pods from the cluster, filterable and sortable, with the selection in the URL. */
export function PodsView({ view, onlyMeshed }: { view: PodsViewName; onlyMeshed: boolean }) {
  const [state, update] = useViewState(view);
  const selectedRef =
    view === 'timelines' ? (state as { pod?: string }).pod : (state as { proxy?: string }).proxy;
  const query = useQuery(inventoryQuery());
  const namespaces = useMemo(
    () => (query.data?.namespaces ?? []).map((n) => ({ value: n.name, label: n.name })),
    [query.data],
  );
  return (
    <QueryBoundary query={query} what="pods">
      {(inv) => {
        const q = state.q?.toLowerCase();
        const rows = inv.pods.filter(
          (p) =>
            (!onlyMeshed || p.proxy.placement !== 'none') &&
            (!state.namespace || p.namespace === state.namespace) &&
            (!state.workload || p.workload === state.workload) &&
            (!q || p.name.includes(q) || (p.podIP ?? '').includes(q)),
        );
        const selected = inv.pods.find((p) => `${p.namespace}/${p.name}` === selectedRef);
        const workloads = [
          ...new Set(
            inv.pods
              .filter((p) => !state.namespace || p.namespace === state.namespace)
              .map((p) => p.workload),
          ),
        ].sort();
        return (
          <div className="space-y-4">
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
                options={workloads.map((w) => ({ value: w, label: w }))}
                onChange={(v) => update({ workload: v })}
                testId="filter-workload"
              />
              <TextFilter
                label="Search pod or IP"
                value={state.q}
                onChange={(v) => update({ q: v })}
                testId="filter-q"
              />
            </FilterBar>
            <VirtualTable
              testId="pods-table"
              rows={rows}
              columns={COLUMNS}
              rowKey={(p) => `${p.namespace}/${p.name}`}
              sort={state.sort ?? 'name'}
              dir={state.dir ?? 'asc'}
              onSort={(sort, dir) => update({ sort, dir })}
              selectedKey={selectedRef}
              onSelect={(p) =>
                update({
                  [view === 'timelines' ? 'pod' : 'proxy']: `${p.namespace}/${p.name}`,
                } as Parameters<typeof update>[0])
              }
              empty={
                onlyMeshed
                  ? 'No pods with an Istio proxy match these filters.'
                  : 'No pods match these filters.'
              }
            />
            {selected && <PodDetail pod={selected} />}
          </div>
        );
      }}
    </QueryBoundary>
  );
}
