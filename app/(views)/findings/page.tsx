import { HydrationBoundary } from '@tanstack/react-query';
import { Suspense } from 'react';
import { findingsQuery } from '@/components/data/queries';
import { FindingsView } from '@/components/findings/FindingsView';
import { PageTitle } from '@/components/ui/Card';
import { ErrorPanel } from '@/components/ui/ErrorPanel';
import { ParamProblem } from '@/components/ui/ParamProblem';
import { IgnoredParams } from '@/components/ui/IgnoredParams';
import { pageQuery } from '@/server/screens/page-params';
import { prefetch } from '@/server/prefetch';
import { pageScope } from '@/server/auth/page';
import { getFindings } from '@/server/screens/findings/findings';

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
        <PageTitle title="Findings" />
        <ErrorPanel title="This link names no cluster context meshdx can use" {...at.problem} />
      </>
    );
  const scope = at.scope;
  const ctx = scope.context;
  const q = await pageQuery(scope, '/findings', params);
  if (q.problem) return <ParamProblem title="Findings" problem={q.problem} />;
  const state = await prefetch([{ ...findingsQuery(ctx), queryFn: () => getFindings(scope) }]);
  return (
    <>
      <PageTitle
        title="Findings"
        subtitle="What meshdx found, with stable codes and the fix for each."
      />
      <IgnoredParams query={q} page="Findings" path="/findings" context={ctx} />
      <HydrationBoundary state={state}>
        <Suspense>
          <FindingsView />
        </Suspense>
      </HydrationBoundary>
    </>
  );
}
