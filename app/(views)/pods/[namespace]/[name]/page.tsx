import { PodDetailView } from '@/components/inventory/PodDetailView';
import { ErrorPanel } from '@/components/ui/ErrorPanel';
import { PageTitle } from '@/components/ui/Card';
import { toErrorResult } from '@/server/http';
import { contextFrom } from '@/lib/api/context';
import { getPodDetail } from '@/server/screens/overview/pod';

export default async function PodPage({
  params,
  searchParams,
}: {
  params: Promise<{ namespace: string; name: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { namespace, name } = await params;
  const ctx = contextFrom(await searchParams);
  // page params arrive percent-encoded; a malformed escape is shown as it came, and then
  // rejected by the name check like any other invalid name
  const ns = safeDecode(namespace);
  const pod = safeDecode(name);
  try {
    const detail = await getPodDetail(ctx, ns, pod);
    return (
      <>
        <PageTitle
          title={`Pod ${ns}/${pod}`}
          subtitle="Containers, proxy, labels, annotations and the events the cluster still keeps."
        />
        <PodDetailView detail={detail} />
      </>
    );
  } catch (e) {
    const r = toErrorResult(e);
    return (
      <>
        <PageTitle title="Pod" />
        <ErrorPanel title={`Could not show pod ${ns}/${pod}`} {...r.body.error} />
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
