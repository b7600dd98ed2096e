import { HydrationBoundary } from '@tanstack/react-query';
import { Suspense } from 'react';
import { inventoryQuery } from '@/components/data/queries';
import { IncidentsView } from '@/components/incidents/IncidentsView';
import { incidentsQuery } from '@/components/incidents/query';
import { PageTitle } from '@/components/ui/Card';
import { parseViewState } from '@/lib/api/viewstate';
import { prefetch } from '@/server/prefetch';
import { getIncidents } from '@/server/services/incidents';
import { getInventory } from '@/server/services/inventory';

export default async function Page({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const state = parseViewState('incidents', await searchParams);
  const dehydrated = await prefetch([
    { queryKey: inventoryQuery().queryKey, queryFn: () => getInventory() },
    { queryKey: incidentsQuery(state).queryKey, queryFn: () => getIncidents(state) },
  ]);
  return (
    <>
      <PageTitle
        title="503 Incidents"
        subtitle="Failing requests from the client proxies' access logs, each tied to the pod that held the upstream IP at that moment — even when it is gone — and the config that would have stopped them."
      />
      <HydrationBoundary state={dehydrated}>
        <Suspense>
          <IncidentsView />
        </Suspense>
      </HydrationBoundary>
    </>
  );
}
