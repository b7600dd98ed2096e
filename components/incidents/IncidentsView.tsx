'use client';

import { useQuery } from '@tanstack/react-query';
import type { PodRow } from '../../lib/api/inventory';
import { inventoryQuery } from '../data/queries';
import { QueryBoundary } from '../data/QueryBoundary';
import { useViewState } from '../data/useViewState';
import { ago } from '../inventory/format';
import { Badge, Card } from '../ui/Card';
import { FilterBar, SelectFilter, TextFilter } from '../ui/Filters';
import { VirtualTable, type Column } from '../ui/VirtualTable';

const COLUMNS: Column<PodRow>[] = [
  {
    key: 'ip',
    header: 'Pod IP',
    width: '140px',
    render: (p) => <span className="font-mono text-xs">{p.podIP}</span>,
    sortValue: (p) => p.podIP ?? '',
  },
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
    width: '2fr',
    render: (p) => <span className="font-mono text-xs">{p.name}</span>,
    sortValue: (p) => p.name,
  },
  {
    key: 'workload',
    header: 'Workload',
    width: '1fr',
    render: (p) => p.workload,
    sortValue: (p) => p.workload,
  },
  {
    key: 'node',
    header: 'Node',
    width: '1fr',
    render: (p) => p.node ?? '–',
    sortValue: (p) => p.node ?? '',
  },
  {
    key: 'state',
    header: 'State',
    width: '110px',
    render: (p) =>
      p.deleting ? <Badge tone="warn">terminating</Badge> : <Badge tone="good">live</Badge>,
    sortValue: (p) => Number(p.deleting),
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

/** Who holds which IP now: the live half of mapping an access-log upstream back to a pod. */
export function IncidentsView() {
  const [state, update] = useViewState('incidents');
  const query = useQuery(inventoryQuery());
  return (
    <QueryBoundary query={query} what="pod IPs">
      {(inv) => {
        const rows = inv.pods.filter(
          (p) =>
            p.podIP &&
            (!state.namespace || p.namespace === state.namespace) &&
            (!state.ip || p.podIP === state.ip),
        );
        return (
          <div className="space-y-4">
            <FilterBar>
              <SelectFilter
                label="Namespace"
                value={state.namespace}
                options={inv.namespaces.map((n) => ({ value: n.name, label: n.name }))}
                onChange={(v) => update({ namespace: v })}
                testId="filter-namespace"
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
            {state.ip && rows.length === 0 && (
              <Card>
                <p className="text-sm text-slate-700" data-testid="ip-not-live">
                  No live pod holds <span className="font-mono">{state.ip}</span> now.
                </p>
              </Card>
            )}
            <VirtualTable
              testId="ip-table"
              rows={rows}
              columns={COLUMNS}
              rowKey={(p) => `${p.namespace}/${p.name}`}
              sort="ip"
              empty="No pods with an IP match these filters."
            />
          </div>
        );
      }}
    </QueryBoundary>
  );
}
