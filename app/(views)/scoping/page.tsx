import { HydrationBoundary } from '@tanstack/react-query';
import { Suspense } from 'react';
import { SCOPING_KEY } from '@/components/scoping/queries';
import { ScopingView } from '@/components/scoping/ScopingView';
import { PageTitle } from '@/components/ui/Card';
import { prefetch } from '@/server/prefetch';
import { getScoping } from '@/server/services/scoping';

export const dynamic = 'force-dynamic';

export default async function Page() {
  const state = await prefetch([{ queryKey: [...SCOPING_KEY], queryFn: () => getScoping() }]);
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
