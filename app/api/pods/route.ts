import { scoped } from '@/app/api/_lib/params';
import { parsePodListQuery } from '@/lib/inventory/pod-list';
import { getPodList } from '@/server/screens/overview/inventory';

export const dynamic = 'force-dynamic';

/** The live pods a screen asks for (?namespace=&ip=&meshed=1&q=&limit=), at most limit rows. */
export function GET(req: Request) {
  return scoped(req, (scope) => {
    const url = new URL(req.url);
    return getPodList(scope, parsePodListQuery(url.searchParams));
  });
}
