import { openPage, type SearchParams } from '@/app/_lib/page-opening';
import { PodDetailView } from '@/components/inventory/PodDetailView';
import { ErrorPanel } from '@/components/ui/ErrorPanel';
import { PageTitle } from '@/components/ui/Card';
import { toErrorResult } from '@/server/http';
import { getPodDetail } from '@/server/screens/overview/pod';
import { podHref, podKey } from '@/lib/refs/pod-ref';
import { ParamProblem } from '@/components/ui/ParamProblem';
import { withContext } from '@/lib/api/context';
import { pagePath, pageQuery } from '@/server/screens/page-params';
import { IgnoredParams } from '@/components/ui/IgnoredParams';

export default async function PodPage({
  params,
  searchParams,
}: {
  params: Promise<{ namespace: string; name: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const segments = await params;
  const search = await searchParams;
  const opened = await openPage('Pod', search);
  if (opened.scope === null) return opened.refused;
  const scope = opened.scope;
  // checked by their kinds as every route checks them (page-params decodes them once)
  const at2 = pagePath('/pods/[namespace]/[name]', segments);
  if (at2.problem) return <ParamProblem title="Pod" problem={at2.problem} />;
  const { namespace: ns, name: pod } = at2.path;
  // `uid`: one pod of the name (a link from an incident to a pod since replaced by a namesake);
  // anything else in the link is named, not dropped quietly
  const q = await pageQuery(null, '/pods/[namespace]/[name]', search);
  if (q.problem) return <ParamProblem title="Pod" problem={q.problem} />;
  try {
    const detail = await getPodDetail(scope, ns, pod, q.values.uid ?? null);
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
        <IgnoredParams
          query={q}
          page="the pod page"
          path={podHref({ namespace: ns, name: pod })}
          context={scope.context}
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
        {q.values.uid && r.status === 404 ? (
          <p className="mt-3 text-sm">
            <a
              className="text-blue-700 underline"
              href={withContext(podHref({ namespace: ns, name: pod }), scope.context)}
            >
              Open the page of the pod of this name, whichever it is
            </a>
          </p>
        ) : null}
      </>
    );
  }
}
