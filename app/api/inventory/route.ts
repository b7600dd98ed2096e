import { filterParams, scoped } from '@/app/api/_lib/params';
import { VIEW_PARAM_KINDS } from '@/lib/api/param-kinds';
import { getInventory } from '@/server/screens/overview/inventory';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return scoped(req, async (scope) => {
    const { namespace } = await filterParams(
      scope,
      new URL(req.url).searchParams,
      VIEW_PARAM_KINDS.namespaced,
    );
    return getInventory(scope, namespace ?? null);
  });
}
