import { contextParam } from '@/app/api/_lib/params';
import { parseViewState } from '@/lib/api/viewstate';
import { jsonResponse } from '@/server/http';
import { getIncidents } from '@/server/screens/incidents/incidents';

export const dynamic = 'force-dynamic';

/** GET /api/incidents?context=&namespace=&service=&ip=&client=&from=&to= : the Incidents view model. */
export function GET(req: Request) {
  return jsonResponse(() => {
    const state = parseViewState('incidents', new URL(req.url).searchParams);
    return getIncidents(contextParam(req), state);
  });
}
