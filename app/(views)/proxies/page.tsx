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
        title="Proxies"
        subtitle="Every Istio proxy in the mesh: sidecars, native sidecars and gateways."
      />
      <HydrationBoundary state={state}>
        <Suspense>
          <PodsView view="proxies" onlyMeshed />
        </Suspense>
      </HydrationBoundary>
    </>
  );
}
