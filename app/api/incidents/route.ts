import { routeQuery, scoped } from '@/app/api/_lib/params';
import { parseViewState } from '@/lib/api/viewstate';
import { getIncidents } from '@/server/screens/incidents/incidents';
import { windowOf } from '@/server/screens/window';

export const dynamic = 'force-dynamic';

/** GET /api/incidents?context=&namespace=&service=&ip=&client=&from=&to= : the Incidents view model. */
export function GET(req: Request) {
  return scoped(req, async (scope) => {
    // from/to as RFC 3339, epoch ms or now-15m (a Grafana data link), made absolute here
    const win = windowOf(scope, new URL(req.url).searchParams);
    const { params } = await routeQuery(scope, '/api/incidents', win.params);
    return getIncidents(scope, parseViewState('incidents', params));
  });
}
