'use client';

import { useMemo, type ReactNode } from 'react';
import type { ProxyFleetRow } from './api';
import { sidecarScopes } from '../../lib/dataplane/proxy-container';
import { Badge } from '../ui/Card';
import { ElidedName } from '../ui/ElidedName';
import { VirtualTable, type Column } from '../ui/VirtualTable';
import { bytes, count } from './format';
import { PodLink } from '../inventory/PodLink';

/** Where and when a row's figures were sampled. */
function sourceTitle(r: ProxyFleetRow): string {
  const from = r.source === 'prometheus' ? 'Prometheus' : "meshdx's scrape of :15090";
  return r.sampledAt ? `from ${from}, sampled ${r.sampledAt}` : `from ${from}`;
}

/**
 * A figure of a row: its value, or "unknown" with why (the row's status, or the raw value that
 * was read and could not be), never a blank that reads as 0.
 */
function figure(
  r: ProxyFleetRow,
  value: number | null,
  stat: string,
  fmt: (n: number) => string,
): ReactNode {
  if (r.status === 'not-running') return <span className="text-slate-400">–</span>;
  if (value !== null && r.status === 'ok') return fmt(value);
  const bad = r.implausible.find((i) => i.figure === stat);
  const why = bad ? `implausible ${bad.raw}` : r.status === 'ok' ? 'not reported' : r.status;
  return (
    <span
      className="text-xs text-amber-800"
      title={bad ? `${bad.figure} read as ${bad.raw}: ${bad.reason}` : (r.reason ?? why)}
      data-testid="figure-unknown"
    >
      unknown ({why})
    </span>
  );
}

const syncTone = (s: string) => (s === 'SYNCED' ? 'good' : s === 'NOT SENT' ? 'neutral' : 'bad');

const COLUMNS: Column<ProxyFleetRow>[] = [
  {
    key: 'proxy',
    header: 'Proxy',
    width: '2.4fr',
    // the namespace gives way first, then the name's start: pod names differ at their end
    // (ReplicaSet and pod suffixes), which stays whole
    render: (r) => (
      <span className="flex min-w-0 font-mono text-xs" title={r.key}>
        <span className="min-w-[2ch] shrink-[100] truncate text-slate-500">{r.namespace}/</span>
        <span className="flex min-w-0">
          <PodLink pod={{ namespace: r.namespace, name: r.name }}>
            <ElidedName name={r.name} />
          </PodLink>
        </span>
      </span>
    ),
  },
  {
    key: 'workload',
    header: 'Workload',
    width: '1.2fr',
    render: (r) => r.workload,
  },
  {
    key: 'placement',
    header: 'Kind',
    width: '0.9fr',
    render: (r) => <Badge tone={r.placement === 'gateway' ? 'warn' : 'info'}>{r.placement}</Badge>,
  },
  {
    key: 'clusters',
    header: 'Clusters',
    width: '0.8fr',
    align: 'right',
    render: (r) =>
      figure(r, r.activeClusters, 'envoy_cluster_manager_active_clusters', (n) => count(n)),
  },
  {
    key: 'service',
    header: 'Service (est.)',
    width: '0.9fr',
    align: 'right',
    render: (r) =>
      figure(r, r.serviceClustersEstimate, 'envoy_cluster_manager_active_clusters', (n) =>
        count(n),
      ),
  },
  {
    key: 'listeners',
    header: 'Listeners',
    width: '0.8fr',
    align: 'right',
    render: (r) =>
      figure(r, r.listeners, 'envoy_listener_manager_total_listeners_active', (n) => count(n)),
  },
  {
    key: 'memory',
    header: 'Memory',
    width: '0.9fr',
    align: 'right',
    render: (r) => figure(r, r.memoryBytes, 'envoy_server_memory_allocated', (n) => bytes(n)),
  },
  {
    key: 'istio',
    header: 'Istio',
    width: '0.8fr',
    render: (r) => r.istioVersion ?? '–',
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
      ) : r.sidecarUnknown !== null && sidecarScopes(r.placement) ? (
        <span className="text-xs text-amber-800" title={r.sidecarUnknown}>
          unknown (Sidecars not read)
        </span>
      ) : !sidecarScopes(r.placement) ? (
        <span className="text-slate-500" title="istiod applies Sidecar resources to sidecars only">
          not for a {r.placement}
        </span>
      ) : (
        <Badge tone="warn">none (whole mesh)</Badge>
      ),
  },
  {
    key: 'sync',
    header: 'Sync',
    width: '0.9fr',
    render: (r) => (r.sync ? <Badge tone={syncTone(r.sync.state)}>{r.sync.state}</Badge> : '–'),
  },
  {
    key: 'status',
    header: 'Status',
    width: '1.6fr',
    render: (r) =>
      r.status === 'ok' ? (
        <span title={sourceTitle(r)} data-testid="proxy-source" data-source={r.source ?? ''}>
          <Badge tone="good">{r.serverState ?? 'ok'}</Badge>{' '}
          <span className="text-xs text-slate-500">
            {r.source === 'prometheus' ? 'prom' : 'scrape'}
          </span>
        </span>
      ) : r.status === 'unknown' || r.status === 'late' ? (
        <span title={r.reason ?? ''} data-testid={`proxy-${r.status}`}>
          <Badge tone="warn">{r.status}</Badge>{' '}
          <span className="text-xs text-amber-800">{r.reason}</span>
        </span>
      ) : (
        <span title={r.reason ?? ''} data-testid="proxy-unreachable">
          <Badge tone="bad">{r.status}</Badge>{' '}
          <span className="text-xs text-red-800">{r.reason}</span>
        </span>
      ),
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
  rows: ProxyFleetRow[];
  sort?: string;
  dir?: 'asc' | 'desc';
  onSort: (key: string, dir: 'asc' | 'desc') => void;
  selected?: string;
  onSelect: (row: ProxyFleetRow) => void;
}) {
  // the rows arrive filtered, sorted and paged by the server: the table keeps their order and
  // its headers only ask the server for another sort
  const columns = useMemo(() => {
    const pos = new Map(rows.map((r, i) => [r.key, i]));
    const sign = dir === 'desc' ? -1 : 1;
    return COLUMNS.map((c) => ({
      ...c,
      sortValue: (r: ProxyFleetRow) => sign * (pos.get(r.key) ?? 0),
    }));
  }, [rows, dir]);
  return (
    <VirtualTable
      rows={rows}
      columns={columns}
      rowKey={(r) => r.key}
      sort={sort}
      dir={dir}
      onSort={onSort}
      selectedKey={selected}
      onSelect={onSelect}
      height={420}
      testId="proxies-table"
      label="Proxies"
      empty="No proxy matches the filters."
    />
  );
}
