import { PageTitle } from '@/components/ui/Card';
import { ErrorPanel } from '@/components/ui/ErrorPanel';
import { SnapshotTable } from '@/components/snapshots/SnapshotTable';
import { pageScope } from '@/server/auth/page';
import { listSnapshots } from '@/server/screens/snapshots/snapshots';

/** /snapshots: the frozen views of this context, newest first, with who made each. */
export default async function Page({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const at = await pageScope(await searchParams);
  if (at.scope === null)
    return (
      <>
        <PageTitle title="Snapshots" />
        <ErrorPanel title="This link names no cluster context meshdx can use" {...at.problem} />
      </>
    );
  const list = await listSnapshots(at.scope);
  return (
    <>
      <PageTitle
        title="Snapshots"
        subtitle="Views frozen with Share on Incidents and Timelines: each reopens exactly what was shown, after the pods and logs are gone."
      />
      <SnapshotTable list={list} />
    </>
  );
}
