import { PodDetailView } from '@/components/inventory/PodDetailView';
import { ErrorPanel } from '@/components/ui/ErrorPanel';
import { PageTitle } from '@/components/ui/Card';
import { toErrorResult } from '@/server/http';
import { getPodDetail } from '@/server/services/pod';

export default async function PodPage({
  params,
}: {
  params: Promise<{ namespace: string; name: string }>;
}) {
  const { namespace, name } = await params;
  const ns = decodeURIComponent(namespace);
  const pod = decodeURIComponent(name);
  try {
    const detail = await getPodDetail(ns, pod);
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
