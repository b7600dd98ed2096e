import { openPage, type SearchParams } from '@/app/_lib/page-opening';
import { PageTitle } from '@/components/ui/Card';
import { SnapshotTable } from '@/components/snapshots/SnapshotTable';
import { listSnapshots } from '@/server/screens/snapshots/snapshots';

/** /snapshots: the frozen views of this context, newest first, with who made each. */
export default async function Page({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const opened = await openPage('Snapshots', await searchParams);
  if (opened.scope === null) return opened.refused;
  const list = await listSnapshots(opened.scope);
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
