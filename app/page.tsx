import { HydrationBoundary } from '@tanstack/react-query';
import { Suspense } from 'react';
import { findingsQuery, inventoryQuery } from '@/components/data/queries';
import { OverviewView } from '@/components/overview/OverviewView';
import { PageTitle } from '@/components/ui/Card';
import { ErrorPanel } from '@/components/ui/ErrorPanel';
import { ParamProblem } from '@/components/ui/ParamProblem';
import { IgnoredParams } from '@/components/ui/IgnoredParams';
import { pageQuery } from '@/server/screens/page-params';
import { prefetch } from '@/server/prefetch';
import { pageScope } from '@/server/auth/page';
import { getInventory } from '@/server/screens/overview/inventory';
import { findingsAlongside } from '@/server/screens/findings/findings';

export default async function OverviewPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const at = await pageScope(params);
  if (at.scope === null)
    return (
      <>
        <PageTitle title="Overview" />
        <ErrorPanel title="This link names no cluster context meshdx can use" {...at.problem} />
      </>
    );
  const scope = at.scope;
  const ctx = scope.context;
  // a namespace in the link is checked as every route checks it (404 when it is not there)
  const q = await pageQuery(scope, '/', params);
  if (q.problem) return <ParamProblem title="Overview" problem={q.problem} />;
  // the findings' first answer comes with the page when it is in with the inventory. Asked
  // inside a promise: a cluster that cannot be reached at all (no kubeconfig) throws as the
  // inventory is asked for, and that is the view's error to show, not the page's 500
  const inventory = (async () => getInventory(scope))();
  const state = await prefetch([
    { ...inventoryQuery(ctx), queryFn: () => inventory },
    { ...findingsQuery(ctx), queryFn: () => findingsAlongside(scope, inventory) },
  ]);
  return (
    <>
      <PageTitle
        title="Overview"
        subtitle="What needs attention first, and what the cluster has: namespaces, pods with and without an Istio proxy, Sidecar scoping at a glance."
      />
      <IgnoredParams query={q} page="Overview" path="/" context={ctx} />
      <HydrationBoundary state={state}>
        <Suspense>
          <OverviewView />
        </Suspense>
      </HydrationBoundary>
    </>
  );
}
