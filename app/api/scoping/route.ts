import { routeQuery, scoped } from '@/app/api/_lib/params';
import { getScoping } from '@/server/screens/scoping/scoping';

export const dynamic = 'force-dynamic';

/** GET /api/scoping: the Scoping view model. `?refresh=1` skips the short server cache. */
export function GET(req: Request) {
  return scoped(req, async (scope) => {
    const { values } = await routeQuery(scope, '/api/scoping', new URL(req.url).searchParams);
    return getScoping(scope, { refresh: values.refresh === true });
  });
}
