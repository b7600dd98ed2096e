import { PodDetailView } from '@/components/inventory/PodDetailView';
import { ErrorPanel } from '@/components/ui/ErrorPanel';
import { PageTitle } from '@/components/ui/Card';
import { toErrorResult } from '@/server/http';
import { pageScope } from '@/server/auth/page';
import { getPodDetail } from '@/server/screens/overview/pod';
import { podKey } from '@/lib/refs/pod-ref';

export default async function PodPage({
  params,
  searchParams,
}: {
  params: Promise<{ namespace: string; name: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { namespace, name } = await params;
  const at = await pageScope(await searchParams);
  if (at.scope === null)
    return (
      <>
        <PageTitle title="Pod" />
        <ErrorPanel title="This link names no cluster context meshdx can use" {...at.problem} />
      </>
    );
  const scope = at.scope;
  // page params arrive percent-encoded; a malformed escape is shown as it came, and then
  // rejected by the name check like any other invalid name
  const ns = safeDecode(namespace);
  const pod = safeDecode(name);
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

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
