'use client';

import { useMemo, useState } from 'react';
import type { ClusterRowView } from './api';
import { distinctValues, filterClusterRows, type ClusterFilter } from '../../lib/proxies/filter';
import { Badge } from '../ui/Card';
import { FilterBar, SelectFilter, TextFilter } from '../ui/Filters';
import { VirtualTable, type Column } from '../ui/VirtualTable';

const COLUMNS: Column<ClusterRowView>[] = [
  {
    key: 'fqdn',
    header: 'SERVICE FQDN',
    width: '3fr',
    render: (r) => <span className="font-mono text-xs">{r.fqdn}</span>,
    sortValue: (r) => r.fqdn,
  },
  {
    key: 'port',
    header: 'PORT',
    width: '0.6fr',
    render: (r) => String(r.port),
    sortValue: (r) => (r.port === '-' ? -1 : r.port),
  },
  {
    key: 'subset',
    header: 'SUBSET',
    width: '0.8fr',
    render: (r) => r.subset,
    sortValue: (r) => r.subset,
  },
  {
    key: 'direction',
    header: 'DIRECTION',
    width: '0.9fr',
    render: (r) => r.direction,
    sortValue: (r) => r.direction,
  },
  { key: 'type', header: 'TYPE', width: '1fr', render: (r) => r.type, sortValue: (r) => r.type },
  {
    key: 'dr',
    header: 'DESTINATION RULE',
    width: '1.4fr',
    render: (r) => r.destinationRule,
    sortValue: (r) => r.destinationRule,
  },
  {
    key: 'used',
    header: 'USED',
    width: '0.7fr',
    render: (r) =>
      r.used === null ? '–' : r.used ? <Badge tone="good">used</Badge> : <Badge>unused</Badge>,
    sortValue: (r) => (r.used === null ? -1 : Number(r.used)),
  },
];

/** `istioctl proxy-config cluster` as a searchable, filterable table. */
export function ClusterTable({ rows }: { rows: ClusterRowView[] }) {
  const [f, setF] = useState<ClusterFilter>({});
  const [sort, setSort] = useState<{ key?: string; dir: 'asc' | 'desc' }>({ dir: 'asc' });
  const shown = useMemo(() => filterClusterRows(rows, f), [rows, f]);
  const opts = (pick: (r: ClusterRowView) => string | number) =>
    distinctValues(rows, pick).map((v) => ({ value: v, label: v }));
  return (
    <div>
      <FilterBar>
        <TextFilter
          label="FQDN"
          value={f.fqdn}
          placeholder="reviews.default"
          onChange={(v) => setF({ ...f, fqdn: v })}
          testId="cluster-filter-fqdn"
        />
        <SelectFilter
          label="Port"
          value={f.port}
          options={opts((r) => r.port)}
          onChange={(v) => setF({ ...f, port: v })}
        />
        <SelectFilter
          label="Direction"
          value={f.direction}
          options={opts((r) => r.direction)}
          onChange={(v) => setF({ ...f, direction: v })}
          testId="cluster-filter-direction"
        />
        <SelectFilter
          label="Type"
          value={f.type}
          options={opts((r) => r.type)}
          onChange={(v) => setF({ ...f, type: v })}
        />
        <SelectFilter
          label="Usage"
          value={f.usage}
          options={[
            { value: 'used', label: 'used' },
            { value: 'unused', label: 'unused' },
          ]}
          onChange={(v) => setF({ ...f, usage: v })}
        />
      </FilterBar>
      <VirtualTable
        rows={shown}
        columns={COLUMNS}
        rowKey={(r) => `${r.source}:${r.name}`}
        sort={sort.key}
        dir={sort.dir}
        onSort={(key, dir) => setSort({ key, dir })}
        height={380}
        testId="cluster-table"
      />
    </div>
  );
}
