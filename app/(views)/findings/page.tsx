import { HydrationBoundary } from '@tanstack/react-query';
import { Suspense } from 'react';
import { findingsQuery } from '@/components/data/queries';
import { FindingsView } from '@/components/findings/FindingsView';
import { PageTitle } from '@/components/ui/Card';
import { prefetch } from '@/server/prefetch';
import { getFindings } from '@/server/services/findings';

export default async function Page() {
  const state = await prefetch([
    { queryKey: findingsQuery().queryKey, queryFn: () => getFindings() },
  ]);
  return (
    <>
      <PageTitle
        title="Findings"
        subtitle="What meshdx found, with stable codes and the fix for each."
      />
      <HydrationBoundary state={state}>
        <Suspense>
          <FindingsView />
        </Suspense>
      </HydrationBoundary>
    </>
  );
}
