import { HydrationBoundary } from '@tanstack/react-query';
import { Suspense } from 'react';
import { FleetView } from '@/components/proxies/FleetView';
import { FLEET_KEY } from '@/components/proxies/queries';
import { PageTitle } from '@/components/ui/Card';
import { prefetch } from '@/server/prefetch';
import { cachedFleet } from '@/server/services/proxies-fleet';

export const dynamic = 'force-dynamic';

export default async function Page() {
  // a fresh scan is served at once; otherwise the page streams a new one with its progress
  const cached = cachedFleet();
  const state = await prefetch(
    cached ? [{ queryKey: [...FLEET_KEY], queryFn: () => Promise.resolve(cached) }] : [],
  );
  return (
    <>
      <PageTitle
        title="Proxies"
        subtitle="Every Istio proxy's config size: clusters, listeners and memory, the Sidecar that scopes it, and its sync state. Unscoped proxies carry the whole mesh."
      />
      <HydrationBoundary state={state}>
        <Suspense>
          <FleetView />
        </Suspense>
      </HydrationBoundary>
    </>
  );
}
