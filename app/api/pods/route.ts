import { filterParams, scoped } from '@/app/api/_lib/params';
import { VIEW_PARAM_KINDS } from '@/lib/api/param-kinds';
import { parsePodListQuery } from '@/lib/inventory/pod-list';
import { getPodList } from '@/server/screens/overview/inventory';

export const dynamic = 'force-dynamic';

/** The live pods a screen asks for (?namespace=&ip=&meshed=1&q=&limit=), at most limit rows. */
export function GET(req: Request) {
  return scoped(req, async (scope) => {
    const url = new URL(req.url);
    // a namespace the cluster does not have is a 404 naming it, not an empty list
    await filterParams(scope, url.searchParams, VIEW_PARAM_KINDS.namespaced);
    return getPodList(scope, parsePodListQuery(url.searchParams));
  });
}
