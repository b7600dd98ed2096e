import { filterParams, scoped } from '@/app/api/_lib/params';
import { VIEW_PARAM_KINDS } from '@/lib/api/param-kinds';
import { parseViewState, windowProblem } from '@/lib/api/viewstate';
import { getIncidents } from '@/server/screens/incidents/incidents';

export const dynamic = 'force-dynamic';

/** GET /api/incidents?context=&namespace=&service=&ip=&client=&from=&to= : the Incidents view model. */
export function GET(req: Request) {
  return scoped(req, async (scope) => {
    const params = new URL(req.url).searchParams;
    const problem = windowProblem(params);
    if (problem) throw problem;
    await filterParams(scope, params, VIEW_PARAM_KINDS.incidents);
    const state = parseViewState('incidents', params);
    return getIncidents(scope, state);
  });
}
