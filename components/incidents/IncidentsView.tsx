'use client';

import { useQuery } from '@tanstack/react-query';
import { inventoryQuery } from '../data/queries';
import { QueryBoundary } from '../data/QueryBoundary';
import { useViewState } from '../data/useViewState';
import { FilterBar, SelectFilter, TextFilter } from '../ui/Filters';
import { IncidentReport } from './IncidentReport';
import { IpHolders } from './IpHolders';
import { incidentsQuery } from './query';
import { UploadPanel } from './UploadPanel';
import { useClusterContext } from '../data/useClusterContext';

/**
 * The 503 incident: failing requests from the client proxies' access logs, each tied to the pod
 * that held the upstream IP at that moment (even when it is gone), with the config that would
 * have prevented it. Every filter is in the URL, so the link reopens the same picture.
 */
export function IncidentsView() {
  const [state, update] = useViewState('incidents');
  const ctx = useClusterContext();
  const inventory = useQuery(inventoryQuery(ctx));
  const incidents = useQuery(incidentsQuery(ctx, state));
  const namespaces =
    inventory.data?.namespaces.map((n) => ({ value: n.name, label: n.name })) ?? [];
  const clients =
    inventory.data?.pods
      .filter(
        (p) =>
          p.proxy.placement !== 'none' && (!state.namespace || p.namespace === state.namespace),
      )
      .map((p) => ({ value: `${p.namespace}/${p.name}`, label: `${p.namespace}/${p.name}` })) ?? [];
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
          label="Client proxy (logs + stale endpoints)"
          value={state.client}
          options={clients}
          onChange={(v) => update({ client: v })}
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
      {state.ip && inventory.data && <IpHolders ip={state.ip} pods={inventory.data.pods} />}
      <QueryBoundary query={incidents} what="the incident">
        {(view) => <IncidentReport view={view} />}
      </QueryBoundary>
      <UploadPanel state={state} />
    </div>
  );
}
