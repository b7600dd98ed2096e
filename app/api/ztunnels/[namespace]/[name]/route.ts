import { routePath, routeQuery, scoped } from '@/app/api/_lib/params';
import { getZtunnelDetail } from '@/server/screens/proxies/ztunnel';

export const dynamic = 'force-dynamic';

/**
 * GET /api/ztunnels/NS/NAME: one ztunnel's workload table (istioctl ztunnel-config workloads);
 * a pod that is not a ztunnel is the 404 NOT_A_ZTUNNEL saying so.
 */
export function GET(req: Request, ctx: { params: Promise<{ namespace: string; name: string }> }) {
  return scoped(req, async (scope) => {
    await routeQuery(scope, '/api/ztunnels/[namespace]/[name]', new URL(req.url).searchParams);
    return routePath(scope, '/api/ztunnels/[namespace]/[name]', ctx.params, ({ namespace, name }) =>
      getZtunnelDetail(scope, namespace, name),
    );
  });
}
