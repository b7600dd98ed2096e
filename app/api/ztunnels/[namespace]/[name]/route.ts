import { scoped, podParams, type PodRouteParams } from '@/app/api/_lib/params';
import { getZtunnelDetail } from '@/server/screens/proxies/ztunnel';

export const dynamic = 'force-dynamic';

/** GET /api/ztunnels/NS/NAME: one ztunnel's workload table (istioctl ztunnel-config workloads). */
export function GET(req: Request, ctx: { params: Promise<PodRouteParams> }) {
  return scoped(req, async (scope) => {
    const { namespace, name } = await podParams(ctx.params);
    return getZtunnelDetail(scope, namespace, name);
  });
}
