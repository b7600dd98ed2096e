import { scoped } from '@/app/api/_lib/params';
import { windowProblem } from '@/lib/api/viewstate';
import { parseTimelineQuery } from '@/lib/timeline/fleet-page';
import { getTimelinePage } from '@/server/screens/timelines/timelines';

export const dynamic = 'force-dynamic';

/**
 * Every meshed pod's startup mode and verdicts, counts, gaps per workload, fixes: one page of the
 * rows the query selects (?namespace=&workload=&verdict=&q=&from=&to=&sort=&dir=&offset=&limit=),
 * the counts of all of them. A parameter that cannot be used is a 400 naming it.
 */
export function GET(req: Request) {
  return scoped(req, (scope) => {
    const sp = new URL(req.url).searchParams;
    // a link with a wrong window is named, never dropped
    const problem = windowProblem(sp);
    if (problem) throw problem;
    return getTimelinePage(scope, parseTimelineQuery(sp));
  });
}
