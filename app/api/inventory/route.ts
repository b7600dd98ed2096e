import { routeQuery, scoped } from '@/app/api/_lib/params';
import { getInventory } from '@/server/screens/overview/inventory';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return scoped(req, async (scope) => {
    const { values } = await routeQuery(scope, '/api/inventory', new URL(req.url).searchParams);
    return getInventory(scope, values.namespace ?? null);
  });
}
