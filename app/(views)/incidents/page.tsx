import { HydrationBoundary } from '@tanstack/react-query';
import { Suspense } from 'react';
import { inventoryQuery } from '@/components/data/queries';
import { IncidentsView } from '@/components/incidents/IncidentsView';
import { incidentsQuery } from '@/components/incidents/query';
import { PageTitle } from '@/components/ui/Card';
import { parseViewState } from '@/lib/api/viewstate';
import { prefetch } from '@/server/prefetch';
import { contextFrom } from '@/lib/api/context';
import { getIncidents } from '@/server/screens/incidents/incidents';
import { getInventory } from '@/server/screens/overview/inventory';

export default async function Page({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const state = parseViewState('incidents', params);
  const ctx = contextFrom(params);
  const dehydrated = await prefetch([
    { ...inventoryQuery(ctx), queryFn: () => getInventory(ctx) },
    { ...incidentsQuery(ctx, state), queryFn: () => getIncidents(ctx, state) },
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
