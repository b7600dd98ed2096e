'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { fleetQueryOfView } from '../../lib/proxies/page';
import { useViewState } from '../data/useViewState';
import { Card } from '../ui/Card';
import { Pager } from '../ui/Pager';
import { ApiFooter } from '../ui/ApiFooter';
import { ErrorPanel, errorProps } from '../ui/ErrorPanel';
import { FilterBar, NamespaceWorkloadFilters, TextFilter } from '../ui/Filters';
import { FleetChart } from './FleetChart';
import { ProxyFleetStats, NamespaceList, TopWorkloads } from './FleetSummary';
import { StalenessCard } from './StalenessCard';
import { FleetTable } from './FleetTable';
import { ProxyDetailPanel } from './ProxyDetailPanel';
import { OpensInView } from '../ui/OpensInView';
import { fleetQuery, type FleetProgress, type FleetView as Fleet } from './api';
import { ScanProgress } from './ScanProgress';
import { ZtunnelCard } from './ZtunnelCard';
import { useClusterContext } from '../data/useClusterContext';
import { tryParsePodRef } from '../../lib/refs/pod-ref';

function Loaded({ fleet }: { fleet: Fleet }) {
  const [state, update] = useViewState('proxies');
  // the server filtered, sorted and paged the rows; a filter change starts again at page 1
  const rows = fleet.rows;
  const { namespaces, workloads, matched, offset, limit } = fleet.page;
  const selected = state.proxy ? tryParsePodRef(state.proxy) : null;
  return (
    <>
      <ProxyFleetStats fleet={fleet} />
      <StalenessCard fleet={fleet} />
      <div className="mb-4 grid gap-4 lg:grid-cols-3">
        <NamespaceList
          fleet={fleet}
          onPick={(ns) => update({ namespace: ns, workload: undefined, page: undefined })}
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
        <NamespaceWorkloadFilters
          namespaces={namespaces}
          workloads={workloads}
          namespace={state.namespace}
          workload={state.workload}
          update={update}
        />
        <TextFilter
          label="Search"
          value={state.q}
          placeholder="pod or workload"
          onChange={(v) => update({ q: v, page: undefined })}
          testId="filter-q"
        />
      </FilterBar>
      <FleetTable
        rows={rows}
        sort={state.sort}
        dir={state.dir}
        onSort={(sort, dir) => update({ sort, dir, page: undefined })}
        selected={state.proxy}
        onSelect={(r) => update({ proxy: r.key })}
      />
      <Pager
        offset={offset}
        shown={rows.length}
        limit={limit}
        matched={matched}
        onPage={(page) => update({ page: page > 1 ? String(page) : undefined })}
        testId="fleet-pager"
      />
      {selected && (
        <div className="mt-4">
          <OpensInView openKey={state.proxy ?? ''}>
            <ProxyDetailPanel namespace={selected.namespace} name={selected.name} />
          </OpensInView>
        </div>
      )}
      <ApiFooter api={fleet.api} />
    </>
  );
}

/**
 * The Proxies screen: the fleet (from Prometheus, or a scan streamed with progress), then one
 * page of the ranked fleet; filters, sort and page live in the URL and are applied on the server.
 */
export function FleetView() {
  const [progress, setProgress] = useState<FleetProgress | null>(null);
  const ctx = useClusterContext();
  const [state] = useViewState('proxies');
  const q = useQuery(fleetQuery(ctx, fleetQueryOfView(state), setProgress));
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
