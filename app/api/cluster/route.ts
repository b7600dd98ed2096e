import { routeQuery, scoped } from '@/app/api/_lib/params';
import { getClusterInfo } from '@/server/screens/cluster/info';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return scoped(req, async (scope) => {
    await routeQuery(scope, '/api/cluster', new URL(req.url).searchParams);
    return getClusterInfo(scope);
  });
}
