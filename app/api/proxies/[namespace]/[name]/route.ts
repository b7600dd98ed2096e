import { routePath, routeQuery, scoped } from '@/app/api/_lib/params';
import { getProxyDetail } from '@/server/screens/proxies/detail';

export const dynamic = 'force-dynamic';

/** GET /api/proxies/NS/NAME: the istioctl cluster table of one proxy, with usage and counts. */
export function GET(req: Request, ctx: { params: Promise<{ namespace: string; name: string }> }) {
  return scoped(req, async (scope) => {
    await routeQuery(scope, '/api/proxies/[namespace]/[name]', new URL(req.url).searchParams);
    return routePath(scope, '/api/proxies/[namespace]/[name]', ctx.params, ({ namespace, name }) =>
      getProxyDetail(scope, namespace, name),
    );
  });
}
