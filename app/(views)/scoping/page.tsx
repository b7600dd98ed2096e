import { HydrationBoundary } from '@tanstack/react-query';
import { Suspense } from 'react';
import { scopingQuery } from '@/components/scoping/queries';
import { ScopingView } from '@/components/scoping/ScopingView';
import { PageTitle } from '@/components/ui/Card';
import { prefetch } from '@/server/prefetch';
import { contextFrom } from '@/lib/api/context';
import { getScoping } from '@/server/screens/scoping/scoping';

export const dynamic = 'force-dynamic';

export default async function Page({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const ctx = contextFrom(await searchParams);
  const state = await prefetch([{ ...scopingQuery(ctx), queryFn: () => getScoping(ctx) }]);
  return (
    <>
      <PageTitle
        title="Scoping"
        subtitle="Which proxies carry the whole mesh, what their workloads really call, and the Sidecar resources that cut the pushed config."
      />
      <HydrationBoundary state={state}>
        <Suspense>
          <ScopingView />
        </Suspense>
      </HydrationBoundary>
    </>
  );
}
