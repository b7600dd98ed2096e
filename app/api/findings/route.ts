import { routeQuery, scoped } from '@/app/api/_lib/params';
import { getFindings } from '@/server/screens/findings/findings';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return scoped(req, async (scope) => {
    await routeQuery(scope, '/api/findings', new URL(req.url).searchParams);
    return getFindings(scope);
  });
}
