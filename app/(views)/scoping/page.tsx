import { HydrationBoundary } from '@tanstack/react-query';
import { Suspense } from 'react';
import { scopingQuery } from '@/components/scoping/queries';
import { ScopingView } from '@/components/scoping/ScopingView';
import { PageTitle } from '@/components/ui/Card';
import { ErrorPanel } from '@/components/ui/ErrorPanel';
import { ParamProblem } from '@/components/ui/ParamProblem';
import { IgnoredParams } from '@/components/ui/IgnoredParams';
import { pageQuery } from '@/server/screens/page-params';
import { prefetch } from '@/server/prefetch';
import { pageScope } from '@/server/auth/page';
import { getScoping } from '@/server/screens/scoping/scoping';

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
        <PageTitle title="Scoping" />
        <ErrorPanel title="This link names no cluster context meshdx can use" {...at.problem} />
      </>
    );
  const scope = at.scope;
  const ctx = scope.context;
  const q = await pageQuery(scope, '/scoping', params);
  if (q.problem) return <ParamProblem title="Scoping" problem={q.problem} />;
  const state = await prefetch([{ ...scopingQuery(ctx), queryFn: () => getScoping(scope) }]);
  return (
    <>
      <PageTitle
        title="Scoping"
        subtitle="Which proxies carry the whole mesh, what their workloads really call, and the Sidecar resources that cut the pushed config."
      />
      <IgnoredParams query={q} page="Scoping" path="/scoping" context={ctx} />
      <HydrationBoundary state={state}>
        <Suspense>
          <ScopingView />
        </Suspense>
      </HydrationBoundary>
    </>
  );
}
