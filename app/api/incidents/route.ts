import { parseViewState } from '@/lib/api/viewstate';
import { jsonResponse } from '@/server/http';
import { getIncidents } from '@/server/services/incidents';

export const dynamic = 'force-dynamic';

/** GET /api/incidents?namespace=&service=&ip=&client=&from=&to= : the Incidents view model. */
export function GET(req: Request) {
  const state = parseViewState('incidents', new URL(req.url).searchParams);
  return jsonResponse(() => getIncidents(state));
}
