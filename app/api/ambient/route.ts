import { routeQuery, scoped } from '@/app/api/_lib/params';
import { getAmbient } from '@/server/screens/overview/ambient';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return scoped(req, async (scope) => {
    await routeQuery(scope, '/api/ambient', new URL(req.url).searchParams);
    return getAmbient(scope);
  });
}
