import { HydrationBoundary } from '@tanstack/react-query';
import { Suspense } from 'react';
import { inventoryQuery } from '@/components/data/queries';
import { PodsView } from '@/components/inventory/PodsView';
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
        title="Timelines"
        subtitle="Every meshed pod's containers and their start, with the proxy's state: where the sidecar startup race and the shutdown drain show."
      />
      <HydrationBoundary state={state}>
        <Suspense>
          <PodsView view="timelines" onlyMeshed />
        </Suspense>
      </HydrationBoundary>
    </>
  );
}
