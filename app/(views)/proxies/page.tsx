import { HydrationBoundary } from '@tanstack/react-query';
import { Suspense } from 'react';
import { FleetView } from '@/components/proxies/FleetView';
import { fleetQuery } from '@/components/proxies/queries';
import { PageTitle } from '@/components/ui/Card';
import { prefetch } from '@/server/prefetch';
import { contextFrom } from '@/lib/api/context';
import { runtimeFor } from '@/server/runtime/registry';
import { cachedFleet } from '@/server/screens/proxies/fleet';

export const dynamic = 'force-dynamic';

export default async function Page({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const ctx = contextFrom(await searchParams);
  // a fresh scan is served at once; otherwise the page streams a new one with its progress
  let cached = null;
  try {
    cached = cachedFleet(runtimeFor(ctx));
  } catch {
    // no such cluster or context: the browser's request shows the error with its fix
  }
  const fresh = cached;
  const state = await prefetch(
    fresh ? [{ ...fleetQuery(ctx), queryFn: () => Promise.resolve(fresh) }] : [],
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
