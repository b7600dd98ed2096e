import { HydrationBoundary } from '@tanstack/react-query';
import { Suspense } from 'react';
import { findingsQuery } from '@/components/data/queries';
import { FindingsView } from '@/components/findings/FindingsView';
import { PageTitle } from '@/components/ui/Card';
import { prefetch } from '@/server/prefetch';
import { contextFrom } from '@/lib/api/context';
import { getFindings } from '@/server/screens/findings/findings';

export default async function Page({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const ctx = contextFrom(await searchParams);
  const state = await prefetch([{ ...findingsQuery(ctx), queryFn: () => getFindings(ctx) }]);
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
