import { HydrationBoundary } from '@tanstack/react-query';
import { Suspense } from 'react';
import { inventoryQuery, podListQuery } from '@/components/data/queries';
import { IncidentsView } from '@/components/incidents/IncidentsView';
import { clientPickerQuery, incidentsQuery } from '@/components/incidents/query';
import { WindowProblem } from '@/components/ui/WindowProblem';
import { PageTitle } from '@/components/ui/Card';
import { IgnoredParams } from '@/components/ui/IgnoredParams';
import { ErrorPanel } from '@/components/ui/ErrorPanel';
import { redirect } from 'next/navigation';
import { parseViewState } from '@/lib/api/viewstate';
import { windowAt } from '@/server/screens/window';
import { ParamProblem } from '@/components/ui/ParamProblem';
import { pageQuery } from '@/server/screens/page-params';
import { prefetch } from '@/server/prefetch';
import { linkTo } from '@/lib/api/context';
import { pageScope } from '@/server/auth/page';
import { getIncidents } from '@/server/screens/incidents/incidents';
import { getInventory, getPodList } from '@/server/screens/overview/inventory';

const TITLE = '503 Incidents';
const SUBTITLE =
  "Failing requests from the client proxies' access logs, each tied to the pod that held the upstream IP at that moment — even when it is gone — and the config that would have stopped them.";

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
        <PageTitle title={TITLE} />
        <ErrorPanel title="This link names no cluster context meshdx can use" {...at.problem} />
      </>
    );
  const scope = at.scope;
  const ctx = scope.context;
  const win = windowAt(scope, params);
  // a Grafana link's epoch ms or now-15m opens as the absolute window it meant then
  if (win.rewritten) redirect(`/incidents?${win.params.toString()}`);
  const problem = win.problem;
  if (problem) {
    // a link with a wrong window says so, naming the parameter, instead of showing another window
    // the link without its window, its other parameters checked as ever
    const rest = await pageQuery(scope, '/incidents', params, ['from', 'to']);
    if (rest.problem)
      return <ParamProblem title={TITLE} subtitle={SUBTITLE} problem={rest.problem} />;
    return (
      <>
        <PageTitle title={TITLE} subtitle={SUBTITLE} />
        <WindowProblem problem={problem} withoutWindow={linkTo('/incidents', rest.params, ctx)} />
      </>
    );
  }
  // every filter by its kind, a namespace against the cluster: a bad one is named on the page
  const q = await pageQuery(scope, '/incidents', win.params);
  if (q.problem) return <ParamProblem title={TITLE} subtitle={SUBTITLE} problem={q.problem} />;
  const state = parseViewState('incidents', q.params);
  const dehydrated = await prefetch([
    { ...inventoryQuery(ctx), queryFn: () => getInventory(scope) },
    {
      ...podListQuery(ctx, clientPickerQuery(state.namespace)),
      queryFn: () => getPodList(scope, clientPickerQuery(state.namespace)),
    },
    { ...incidentsQuery(ctx, state), queryFn: () => getIncidents(scope, state) },
  ]);
  return (
    <>
      <PageTitle title={TITLE} subtitle={SUBTITLE} />
      <IgnoredParams query={q} page="503 Incidents" path="/incidents" context={ctx} />
      <HydrationBoundary state={dehydrated}>
        <Suspense>
          <IncidentsView />
        </Suspense>
      </HydrationBoundary>
    </>
  );
}
