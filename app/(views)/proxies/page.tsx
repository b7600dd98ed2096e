import { HydrationBoundary } from '@tanstack/react-query';
import { Suspense } from 'react';
import { FleetView } from '@/components/proxies/FleetView';
import { fleetQuery } from '@/components/proxies/queries';
import { PageTitle } from '@/components/ui/Card';
import { ErrorPanel } from '@/components/ui/ErrorPanel';
import { prefetch } from '@/server/prefetch';
import { pageScope } from '@/server/auth/page';
import { runtimeFor } from '@/server/runtime/registry';
import { cachedFleet, withApi } from '@/server/screens/proxies/fleet';
import { fleetQueryOfView, pageFleet } from '@/lib/proxies/page';
import { parseViewState } from '@/lib/api/viewstate';

export const dynamic = 'force-dynamic';

export default async function Page({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const at = await pageScope(params);
  if (at.scope === null)
    return (
      <>
        <PageTitle title="Proxies" />
        <ErrorPanel title="This link names no cluster context meshdx can use" {...at.problem} />
      </>
    );
  const scope = at.scope;
  const ctx = scope.context;
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (typeof v === 'string') sp.set(k, v);
  const query = fleetQueryOfView(parseViewState('proxies', sp));
  // a fresh fleet is served at once (the page the URL asks for); otherwise the page streams it
  let fresh = null;
  try {
    const rt = runtimeFor(scope);
    const cached = cachedFleet(rt);
    fresh = cached ? pageFleet(withApi(rt, cached), query) : null;
  } catch {
    // no such cluster or context: the browser's request shows the error with its fix
  }
  const page = fresh;
  const state = await prefetch(
    page ? [{ ...fleetQuery(ctx, query), queryFn: () => Promise.resolve(page) }] : [],
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
