import { contextParam, podParams, type PodRouteParams } from '@/app/api/_lib/params';
import { jsonResponse } from '@/server/http';
import { getZtunnelDetail } from '@/server/screens/proxies/ztunnel';

export const dynamic = 'force-dynamic';

/** GET /api/ztunnels/NS/NAME: one ztunnel's workload table (istioctl ztunnel-config workloads). */
export function GET(req: Request, ctx: { params: Promise<PodRouteParams> }) {
  return jsonResponse(async () => {
    const { namespace, name } = await podParams(ctx.params);
    return getZtunnelDetail(contextParam(req), namespace, name);
  });
}
