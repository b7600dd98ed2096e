import { routeQuery, scoped } from '@/app/api/_lib/params';
import { parsePodListQuery } from '@/lib/inventory/pod-list';
import { getPodList } from '@/server/screens/overview/inventory';

export const dynamic = 'force-dynamic';

/** The live pods a screen asks for (?namespace=&ip=&meshed=1&q=&limit=), at most limit rows. */
export function GET(req: Request) {
  return scoped(req, async (scope) => {
    // a namespace the cluster does not have is a 404 naming it, not an empty list
    const { params } = await routeQuery(scope, '/api/pods', new URL(req.url).searchParams);
    return getPodList(scope, parsePodListQuery(params));
  });
}
