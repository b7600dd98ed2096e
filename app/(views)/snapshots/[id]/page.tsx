import { openPage, type SearchParams } from '@/app/_lib/page-opening';
import { IncidentReport } from '@/components/incidents/IncidentReport';
import { FrozenTimelines } from '@/components/snapshots/FrozenTimelines';
import { SnapshotBanner } from '@/components/snapshots/SnapshotBanner';
import { PageTitle } from '@/components/ui/Card';
import { ErrorPanel } from '@/components/ui/ErrorPanel';
import { IncidentsViewSchema } from '@/lib/api/incidents';
import { isRequestError } from '@/lib/api/request-error';
import { TimelinePagedFleetSchema } from '@/lib/api/timelines';
import { ParamProblem } from '@/components/ui/ParamProblem';
import { pagePath } from '@/server/screens/page-params';
import { readableSnapshot, snapshotInfo } from '@/server/screens/snapshots/snapshots';

const TITLES = { incidents: '503 Incidents', timelines: 'Timelines' } as const;

/**
 * /snapshots/ID: a frozen view, rendered from the JSON kept in the store by the view's own
 * components, read-only, under a banner saying when, by whom and from which URL it was frozen.
 */
export default async function Page({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const segments = await params;
  const opened = await openPage('Snapshot', await searchParams);
  if (opened.scope === null) return opened.refused;
  const scope = opened.scope;
  const named = pagePath('/snapshots/[id]', segments);
  if (named.problem) return <ParamProblem title="Snapshot" problem={named.problem} />;
  let snap;
  try {
    snap = await readableSnapshot(scope, named.path.id);
  } catch (e) {
    if (!isRequestError(e)) throw e;
    return (
      <>
        <PageTitle title="Snapshot" />
        <ErrorPanel title="No such snapshot" code={e.code} message={e.message} hint={e.hint} />
      </>
    );
  }
  const info = snapshotInfo(snap, scope.context);
  const unreadable = (why: string) => (
    <ErrorPanel
      title="This snapshot cannot be rendered by this meshdx"
      code="SNAPSHOT_UNREADABLE"
      message={why}
      hint={`Its JSON is kept as frozen: ${info.api}`}
    />
  );
  let json: unknown;
  try {
    json = JSON.parse(snap.body);
  } catch (e) {
    json = e instanceof Error ? e : null;
  }
  let body;
  if (snap.view === 'incidents') {
    const v = IncidentsViewSchema.safeParse(json);
    body = v.success ? (
      <IncidentReport view={v.data} />
    ) : (
      unreadable(`it is not an Incidents view model: ${v.error.issues[0]?.message ?? ''}`)
    );
  } else {
    const v = TimelinePagedFleetSchema.safeParse(json);
    body = v.success ? (
      <FrozenTimelines f={v.data} />
    ) : (
      unreadable(`it is not a Timelines page: ${v.error.issues[0]?.message ?? ''}`)
    );
  }
  return (
    <>
      <PageTitle title={`Snapshot: ${TITLES[snap.view]}`} />
      <div className="space-y-4">
        <SnapshotBanner info={info} />
        {body}
      </div>
    </>
  );
}
