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
import { FLEET_SORT_KEYS, fleetQueryOfView, pageFleet } from '@/lib/proxies/page';
import { badParameter } from '@/lib/api/request-error';
import { ParamProblem } from '@/components/ui/ParamProblem';
import { IgnoredParams } from '@/components/ui/IgnoredParams';
import { pageProblem, pageQuery, type PageProblem } from '@/server/screens/page-params';
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
  const refused = (problem: PageProblem) => <ParamProblem title="Proxies" problem={problem} />;
  const q = await pageQuery(scope, '/proxies', params);
  if (q.problem) return refused(q.problem);
  const sort = q.values.sort;
  if (sort !== undefined && !(FLEET_SORT_KEYS as readonly string[]).includes(sort))
    return refused(
      pageProblem(
        badParameter(
          'sort',
          `cannot sort by ${JSON.stringify(sort)}`,
          `one of ${FLEET_SORT_KEYS.join(', ')}`,
        ),
      ),
    );
  const query = fleetQueryOfView(parseViewState('proxies', q.params));
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
      <IgnoredParams query={q} page="Proxies" path="/proxies" context={ctx} />
      <HydrationBoundary state={state}>
        <Suspense>
          <FleetView />
        </Suspense>
      </HydrationBoundary>
    </>
  );
}
