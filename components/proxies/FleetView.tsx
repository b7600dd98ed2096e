'use client';

import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { FleetProgress, FleetView as Fleet } from '../../lib/api/proxies';
import { distinctValues, filterFleetRows } from '../../lib/proxies/filter';
import { useViewState } from '../data/useViewState';
import { Card } from '../ui/Card';
import { ErrorPanel, errorProps } from '../ui/ErrorPanel';
import { FilterBar, SelectFilter, TextFilter } from '../ui/Filters';
import { FleetChart } from './FleetChart';
import { FleetStats, NamespaceList, TopWorkloads } from './FleetSummary';
import { FleetTable } from './FleetTable';
import { ProxyDetailPanel } from './ProxyDetailPanel';
import { fleetQuery } from './queries';
import { ScanProgress } from './ScanProgress';
import { ZtunnelCard } from './ZtunnelCard';
import { useClusterContext } from '../data/useClusterContext';

function Loaded({ fleet }: { fleet: Fleet }) {
  const [state, update] = useViewState('proxies');
  const rows = useMemo(
    () =>
      filterFleetRows(fleet.rows, {
        namespace: state.namespace,
        workload: state.workload,
        q: state.q,
      }),
    [fleet.rows, state.namespace, state.workload, state.q],
  );
  const namespaces = distinctValues(fleet.rows, (r) => r.namespace);
  const workloads = distinctValues(
    fleet.rows.filter((r) => !state.namespace || r.namespace === state.namespace),
    (r) => r.workload,
  );
  const selected = state.proxy?.split('/');
  return (
    <>
      <FleetStats fleet={fleet} />
      <div className="mb-4 grid gap-4 lg:grid-cols-3">
        <NamespaceList
          fleet={fleet}
          onPick={(ns) => update({ namespace: ns, workload: undefined })}
        />
        <Card title="Active clusters per proxy">
          <FleetChart bins={fleet.distribution} />
        </Card>
        <TopWorkloads fleet={fleet} />
      </div>
      <ZtunnelCard
        rows={fleet.ztunnels}
        selected={state.ztunnel}
        onSelect={(key) => update({ ztunnel: state.ztunnel === key ? undefined : key })}
      />
      <FilterBar>
        <SelectFilter
          label="Namespace"
          value={state.namespace}
          options={namespaces.map((n) => ({ value: n, label: n }))}
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
          label="Search"
          value={state.q}
          placeholder="pod or workload"
          onChange={(v) => update({ q: v })}
          testId="filter-q"
        />
      </FilterBar>
      <FleetTable
        rows={rows}
        sort={state.sort}
        dir={state.dir}
        onSort={(sort, dir) => update({ sort, dir })}
        selected={state.proxy}
        onSelect={(r) => update({ proxy: r.key })}
      />
      {selected?.[0] && selected[1] && (
        <div className="mt-4">
          <ProxyDetailPanel namespace={selected[0]} name={selected[1]} />
        </div>
      )}
    </>
  );
}

/** The Proxies screen: the fleet scan streamed with progress, then the ranked fleet. */
export function FleetView() {
  const [progress, setProgress] = useState<FleetProgress | null>(null);
  const ctx = useClusterContext();
  const q = useQuery(fleetQuery(ctx, setProgress));
  if (q.isPending) return <ScanProgress progress={progress} />;
  if (q.isError) return <ErrorPanel title="Could not scan the proxies" {...errorProps(q.error)} />;
  return (
    <>
      {q.isFetching && <ScanProgress progress={progress} />}
      <div className="mb-2 flex justify-end">
        <button
          type="button"
          className="no-print rounded border border-slate-300 bg-white px-2 py-1 text-xs text-slate-700 hover:bg-slate-50"
          onClick={() => void q.refetch()}
          disabled={q.isFetching}
        >
          Rescan (last: {new Date(q.data.scannedAt).toISOString().replace('T', ' ').slice(0, 19)}Z)
        </button>
      </div>
      <Loaded fleet={q.data} />
    </>
  );
}
