import { HydrationBoundary } from '@tanstack/react-query';
import { Suspense } from 'react';
import { podTimelineQuery } from '@/components/timeline/queries';
import { TimelinesView } from '@/components/timeline/TimelinesView';
import { PageTitle } from '@/components/ui/Card';
import { parseViewState } from '@/lib/api/viewstate';
import { prefetch, type Prefetch } from '@/server/prefetch';
import { contextFrom } from '@/lib/api/context';
import { getPodTimeline, getTimelineFleet } from '@/server/screens/timelines/timelines';

export default async function Page({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const state = parseViewState('timelines', params);
  const ctx = contextFrom(params);
  // The fleet (thousands of rows) is fetched by the browser: embedding it in the HTML doubles
  // its parse cost. Prefetching here only starts the server's watch-fed cache.
  void getTimelineFleet(ctx).catch(() => undefined);
  const queries: Prefetch[] = [];
  const [ns, name] = state.pod?.split('/') ?? [];
  if (ns && name) {
    queries.push({
      ...podTimelineQuery(ctx, ns, name),
      queryFn: () => getPodTimeline(ctx, ns, name),
    });
  }
  const dehydrated = await prefetch(queries);
  return (
    <>
      <PageTitle
        title="Timelines"
        subtitle="Every meshed pod's start against its proxy: which workloads race their sidecar, which drain too short, and the fix to copy. Pick a pod for its timeline."
      />
      <HydrationBoundary state={dehydrated}>
        <Suspense>
          <TimelinesView />
        </Suspense>
      </HydrationBoundary>
    </>
  );
}
