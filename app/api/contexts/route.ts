import { routeQuery } from '@/app/api/_lib/params';
import { jsonResponse } from '@/server/http';
import { getContexts } from '@/server/screens/cluster/info';

export const dynamic = 'force-dynamic';

/** GET /api/contexts: the kubeconfig's contexts (name, cluster server, current), or in-cluster. */
export function GET(req: Request) {
  return jsonResponse(async () => {
    await routeQuery(null, '/api/contexts', new URL(req.url).searchParams);
    return getContexts();
  });
}
