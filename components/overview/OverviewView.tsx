'use client';

import { useQuery } from '@tanstack/react-query';
import { inventoryQuery } from '../inventory/api';
import { QueryBoundary } from '../data/QueryBoundary';
import { useViewState } from '../data/useViewState';
import { NamespaceTable } from '../inventory/NamespaceTable';
import { Card, Stat } from '../ui/Card';
import { LateNote } from '../ui/LateNote';
import { AmbientCard } from './AmbientCard';
import { AttentionCard } from './AttentionCard';
import { MigrationCard } from './MigrationCard';
import { useClusterContext } from '../data/useClusterContext';

export function OverviewView() {
  const [state] = useViewState('overview');
  const ctx = useClusterContext();
  const query = useQuery(inventoryQuery(ctx));
  return (
    <QueryBoundary query={query} what="the cluster inventory">
      {(inv) => {
        const t = inv.totals;
        // while the first pod list runs, the pod counts are of the pods read so far
        const soFar = inv.late?.some((l) => l.part === 'pods') ? ' (so far)' : '';
        const rows = state.namespace
          ? inv.namespaces.filter((n) => n.name === state.namespace)
          : inv.namespaces;
        return (
          <div className="space-y-4">
            <LateNote late={inv.late} />
            <div className="grid grid-cols-2 gap-3 md:grid-cols-4 lg:grid-cols-8">
              <Stat label="Namespaces" value={t.namespaces} testId="stat-namespaces" />
              <Stat label={`Pods${soFar}`} value={t.pods} testId="stat-pods" />
              <Stat
                label={`With proxy${soFar}`}
                value={t.meshedPods}
                tone="good"
                testId="stat-meshed"
              />
              <Stat label="Services" value={t.services} testId="stat-services" />
              <Stat
                label="Sidecars"
                value={t.sidecars}
                tone={t.sidecars === 0 && t.meshedPods > 0 ? 'warn' : 'neutral'}
                testId="stat-sidecars"
              />
              <Stat label="DestinationRules" value={t.destinationRules} />
              <Stat label="VirtualServices" value={t.virtualServices} />
              <Stat label="ServiceEntries" value={t.serviceEntries} />
              <Stat
                label="Ambient namespaces"
                value={t.ambientNamespaces}
                testId="stat-ambient-ns"
              />
              <Stat
                label={`Ambient pods${soFar}`}
                value={t.ambientPods}
                testId="stat-ambient-pods"
              />
              <Stat label="ztunnels" value={t.ztunnels} testId="stat-ztunnels" />
              <Stat label="Waypoints" value={t.waypoints} testId="stat-waypoints" />
            </div>
            <AttentionCard />
            <Card title="Namespaces" testId="namespaces-card">
              <NamespaceTable
                rows={rows}
                rootNamespace={inv.rootNamespace}
                focus="overview"
                testId="namespaces-table"
              />
            </Card>
            {(t.ztunnels > 0 || t.waypoints > 0 || t.ambientNamespaces > 0) && (
              <AmbientCard ambient={inv.ambient} />
            )}
            <MigrationCard namespace={state.namespace ?? null} />
          </div>
        );
      }}
    </QueryBoundary>
  );
}
