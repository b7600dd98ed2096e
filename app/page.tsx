import { HydrationBoundary } from '@tanstack/react-query';
import { Suspense } from 'react';
import { inventoryQuery } from '@/components/data/queries';
import { OverviewView } from '@/components/overview/OverviewView';
import { PageTitle } from '@/components/ui/Card';
import { prefetch } from '@/server/prefetch';
import { getInventory } from '@/server/services/inventory';

export default async function OverviewPage() {
  const state = await prefetch([
    { queryKey: inventoryQuery().queryKey, queryFn: () => getInventory() },
  ]);
  return (
    <>
      <PageTitle
        title="Overview"
        subtitle="What needs attention first, and what the cluster has: namespaces, pods with and without an Istio proxy, Sidecar scoping at a glance."
      />
      <HydrationBoundary state={state}>
        <Suspense>
          <OverviewView />
        </Suspense>
      </HydrationBoundary>
    </>
  );
}
