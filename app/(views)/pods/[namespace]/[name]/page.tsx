import { PodDetailView } from '@/components/inventory/PodDetailView';
import { ErrorPanel } from '@/components/ui/ErrorPanel';
import { PageTitle } from '@/components/ui/Card';
import { toErrorResult } from '@/server/http';
import { pageScope } from '@/server/auth/page';
import { getPodDetail } from '@/server/screens/overview/pod';
import { podKey } from '@/lib/refs/pod-ref';
import { ParamProblem } from '@/components/ui/ParamProblem';
import { pagePath } from '@/server/screens/page-params';

export default async function PodPage({
  params,
  searchParams,
}: {
  params: Promise<{ namespace: string; name: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const segments = await params;
  const at = await pageScope(await searchParams);
  if (at.scope === null)
    return (
      <>
        <PageTitle title="Pod" />
        <ErrorPanel title="This link names no cluster context meshdx can use" {...at.problem} />
      </>
    );
  const scope = at.scope;
  // checked by their kinds as every route checks them (page-params decodes them once)
  const at2 = pagePath('/pods/[namespace]/[name]', segments);
  if (at2.problem)
    return (
      <>
        <PageTitle title="Pod" />
        <ParamProblem problem={at2.problem} />
      </>
    );
  const { namespace: ns, name: pod } = at2.path;
  try {
    const detail = await getPodDetail(scope, ns, pod);
    return (
      <>
        <PageTitle
          title={`Pod ${podKey(ns, pod)}${detail.gone ? ' (gone)' : ''}`}
          subtitle={
            detail.gone
              ? "Deleted: its last state, IPs, changes and events as meshdx's history kept them."
              : 'Containers, proxy, IPs, recorded changes, annotations and the events the cluster still keeps.'
          }
        />
        <PodDetailView detail={detail} />
      </>
    );
  } catch (e) {
    const r = toErrorResult(e, scope.identity);
    return (
      <>
        <PageTitle title="Pod" />
        <ErrorPanel title={`Could not show pod ${podKey(ns, pod)}`} {...r.body.error} />
      </>
    );
  }
}
