import { HydrationBoundary } from '@tanstack/react-query';
import { Suspense } from 'react';
import { inventoryQuery } from '@/components/data/queries';
import { IncidentsView } from '@/components/incidents/IncidentsView';
import { PageTitle } from '@/components/ui/Card';
import { prefetch } from '@/server/prefetch';
import { getInventory } from '@/server/services/inventory';

export default async function Page() {
  const state = await prefetch([
    { queryKey: inventoryQuery().queryKey, queryFn: () => getInventory() },
  ]);
  return (
    <>
      <PageTitle
        title="503 Incidents"
        subtitle="Map an upstream IP from an access log to the pod that holds it."
      />
      <HydrationBoundary state={state}>
        <Suspense>
          <IncidentsView />
        </Suspense>
      </HydrationBoundary>
    </>
  );
}
