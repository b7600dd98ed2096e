import { contextParam } from '@/app/api/_lib/params';
import { windowProblem } from '@/lib/api/viewstate';
import { jsonResponse } from '@/server/http';
import { getTimelineFleet } from '@/server/screens/timelines/timelines';

export const dynamic = 'force-dynamic';

/** Every meshed pod's startup mode and verdicts, counts, gaps per workload, fixes. */
export function GET(req: Request) {
  return jsonResponse(() => {
    // the window is applied by the page; a link with a wrong one is named, never dropped
    const problem = windowProblem(new URL(req.url).searchParams);
    if (problem) throw problem;
    return getTimelineFleet(contextParam(req));
  });
}
