import { HydrationBoundary } from '@tanstack/react-query';
import { Suspense } from 'react';
import { inventoryQuery } from '@/components/data/queries';
import { OverviewView } from '@/components/overview/OverviewView';
import { PageTitle } from '@/components/ui/Card';
import { prefetch } from '@/server/prefetch';
import { contextFrom } from '@/lib/api/context';
import { getInventory } from '@/server/screens/overview/inventory';

export default async function OverviewPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const ctx = contextFrom(await searchParams);
  const state = await prefetch([{ ...inventoryQuery(ctx), queryFn: () => getInventory(ctx) }]);
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
