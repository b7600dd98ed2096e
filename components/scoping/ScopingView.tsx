'use client';

import { useQuery } from '@tanstack/react-query';
import { inventoryQuery } from '../data/queries';
import { QueryBoundary } from '../data/QueryBoundary';
import { useViewState } from '../data/useViewState';
import { NamespaceTable } from '../inventory/NamespaceTable';
import { Card, Stat } from '../ui/Card';
import { FilterBar, SelectFilter } from '../ui/Filters';

/** Which namespaces carry the whole mesh: meshed pods and no default Sidecar. */
export function ScopingView() {
  const [state, update] = useViewState('scoping');
  const query = useQuery(inventoryQuery());
  return (
    <QueryBoundary query={query} what="namespaces and Sidecars">
      {(inv) => {
        const meshed = inv.namespaces.filter((n) => n.meshedPods > 0);
        const unscoped = meshed.filter((n) => !n.defaultSidecar);
        const rows = (
          state.namespace ? inv.namespaces.filter((n) => n.name === state.namespace) : meshed
        ).sort(
          (a, b) =>
            Number(a.defaultSidecar) - Number(b.defaultSidecar) || b.meshedPods - a.meshedPods,
        );
        return (
          <div className="space-y-4">
            <div className="grid grid-cols-3 gap-3">
              <Stat label="Meshed namespaces" value={meshed.length} testId="stat-meshed-ns" />
              <Stat
                label="Without a default Sidecar"
                value={unscoped.length}
                tone={unscoped.length ? 'warn' : 'good'}
                testId="stat-unscoped-ns"
              />
              <Stat
                label="Sidecar resources"
                value={inv.totals.sidecars}
                testId="stat-sidecar-resources"
              />
            </div>
            <FilterBar>
              <SelectFilter
                label="Namespace"
                value={state.namespace}
                options={inv.namespaces.map((n) => ({ value: n.name, label: n.name }))}
                onChange={(v) => update({ namespace: v })}
                testId="filter-namespace"
              />
            </FilterBar>
            <Card title="Meshed namespaces, unscoped first" testId="scoping-card">
              <NamespaceTable rows={rows} focus="scoping" testId="scoping-table" />
            </Card>
          </div>
        );
      }}
    </QueryBoundary>
  );
}
