'use client';

import type { FleetRow } from '../../lib/api/proxies';
import { Badge } from '../ui/Card';
import { VirtualTable, type Column } from '../ui/VirtualTable';
import { bytes, count } from './format';

const num = (v: number | null) => v ?? -1;

const syncTone = (s: string) => (s === 'SYNCED' ? 'good' : s === 'NOT SENT' ? 'neutral' : 'bad');

const COLUMNS: Column<FleetRow>[] = [
  {
    key: 'proxy',
    header: 'Proxy',
    width: '2.4fr',
    render: (r) => <span className="font-mono text-xs">{r.key}</span>,
    sortValue: (r) => r.key,
  },
  {
    key: 'workload',
    header: 'Workload',
    width: '1.2fr',
    render: (r) => r.workload,
    sortValue: (r) => r.workload,
  },
  {
    key: 'placement',
    header: 'Kind',
    width: '0.9fr',
    render: (r) => <Badge tone={r.placement === 'gateway' ? 'warn' : 'info'}>{r.placement}</Badge>,
    sortValue: (r) => r.placement,
  },
  {
    key: 'clusters',
    header: 'Clusters',
    width: '0.8fr',
    align: 'right',
    render: (r) =>
      r.status === 'ok' ? count(r.activeClusters) : <span className="text-slate-400">–</span>,
    sortValue: (r) => num(r.activeClusters),
  },
  {
    key: 'service',
    header: 'Service (est.)',
    width: '0.9fr',
    align: 'right',
    render: (r) => count(r.serviceClustersEstimate),
    sortValue: (r) => num(r.serviceClustersEstimate),
  },
  {
    key: 'listeners',
    header: 'Listeners',
    width: '0.8fr',
    align: 'right',
    render: (r) => count(r.listeners),
    sortValue: (r) => num(r.listeners),
  },
  {
    key: 'memory',
    header: 'Memory',
    width: '0.9fr',
    align: 'right',
    render: (r) => bytes(r.memoryBytes),
    sortValue: (r) => num(r.memoryBytes),
  },
  {
    key: 'istio',
    header: 'Istio',
    width: '0.8fr',
    render: (r) => r.istioVersion ?? '–',
    sortValue: (r) => r.istioVersion ?? '',
  },
  {
    key: 'sidecar',
    header: 'Sidecar resource',
    width: '1.4fr',
    render: (r) =>
      r.sidecar ? (
        <span title={`selected by ${r.sidecar.source}`}>
          {r.sidecar.namespace}/{r.sidecar.name}
        </span>
      ) : (
        <Badge tone="warn">none (whole mesh)</Badge>
      ),
    sortValue: (r) => (r.sidecar ? `${r.sidecar.namespace}/${r.sidecar.name}` : ''),
  },
  {
    key: 'sync',
    header: 'Sync',
    width: '0.9fr',
    render: (r) => (r.sync ? <Badge tone={syncTone(r.sync.state)}>{r.sync.state}</Badge> : '–'),
    sortValue: (r) => r.sync?.state ?? '',
  },
  {
    key: 'status',
    header: 'Status',
    width: '1.6fr',
    render: (r) =>
      r.status === 'ok' ? (
        <Badge tone="good">{r.serverState ?? 'ok'}</Badge>
      ) : (
        <span title={r.reason ?? ''} data-testid="proxy-unreachable">
          <Badge tone="bad">{r.status}</Badge>{' '}
          <span className="text-xs text-red-800">{r.reason}</span>
        </span>
      ),
    sortValue: (r) => r.status,
  },
];

export function FleetTable({
  rows,
  sort,
  dir,
  onSort,
  selected,
  onSelect,
}: {
  rows: FleetRow[];
  sort?: string;
  dir?: 'asc' | 'desc';
  onSort: (key: string, dir: 'asc' | 'desc') => void;
  selected?: string;
  onSelect: (row: FleetRow) => void;
}) {
  return (
    <VirtualTable
      rows={rows}
      columns={COLUMNS}
      rowKey={(r) => r.key}
      sort={sort}
      dir={dir}
      onSort={onSort}
      selectedKey={selected}
      onSelect={onSelect}
      height={420}
      testId="proxies-table"
      empty="No proxy matches the filters."
    />
  );
}
