import { contextParam, podParams, type PodRouteParams } from '@/app/api/_lib/params';
import { jsonResponse } from '@/server/http';
import { getProxyDetail } from '@/server/screens/proxies/detail';

export const dynamic = 'force-dynamic';

/** GET /api/proxies/NS/NAME: the istioctl cluster table of one proxy, with usage and counts. */
export function GET(req: Request, ctx: { params: Promise<PodRouteParams> }) {
  return jsonResponse(async () => {
    const { namespace, name } = await podParams(ctx.params);
    return getProxyDetail(contextParam(req), namespace, name);
  });
}
