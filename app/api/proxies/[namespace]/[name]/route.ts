import { scoped, podParams, type PodRouteParams } from '@/app/api/_lib/params';
import { getProxyDetail } from '@/server/screens/proxies/detail';

export const dynamic = 'force-dynamic';

/** GET /api/proxies/NS/NAME: the istioctl cluster table of one proxy, with usage and counts. */
export function GET(req: Request, ctx: { params: Promise<PodRouteParams> }) {
  return scoped(req, async (scope) => {
    const { namespace, name } = await podParams(ctx.params);
    return getProxyDetail(scope, namespace, name);
  });
}
