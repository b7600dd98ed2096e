import { HydrationBoundary } from '@tanstack/react-query';
import { Suspense } from 'react';
import { inventoryQuery } from '@/components/data/queries';
import { ScopingView } from '@/components/scoping/ScopingView';
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
        title="Scoping"
        subtitle="Namespaces whose proxies carry the whole mesh because no Sidecar resource narrows them."
      />
      <HydrationBoundary state={state}>
        <Suspense>
          <ScopingView />
        </Suspense>
      </HydrationBoundary>
    </>
  );
}
