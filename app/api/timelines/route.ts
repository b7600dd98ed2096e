import { routeQuery, scoped } from '@/app/api/_lib/params';
import { parseTimelineQuery } from '@/lib/timeline/fleet-page';
import { getTimelinePage } from '@/server/screens/timelines/timelines';
import { windowOf } from '@/server/screens/window';

export const dynamic = 'force-dynamic';

/**
 * Every meshed pod's startup mode and verdicts, counts, gaps per workload, fixes: one page of the
 * rows the query selects (?namespace=&workload=&verdict=&q=&from=&to=&sort=&dir=&offset=&limit=),
 * the counts of all of them. A parameter that cannot be used is a 400 naming it.
 */
export function GET(req: Request) {
  return scoped(req, async (scope) => {
    // a link with a wrong window is named, never dropped; epoch ms and now-15m made absolute
    const win = windowOf(scope, new URL(req.url).searchParams);
    // a namespace the cluster does not have is a 404 naming it, not an empty fleet
    const { params } = await routeQuery(scope, '/api/timelines', win.params);
    return getTimelinePage(scope, parseTimelineQuery(params));
  });
}
