import { jsonResponse } from '@/server/http';
import { getProxyDetail } from '@/server/services/proxies-detail';

export const dynamic = 'force-dynamic';

/** GET /api/proxies/NS/NAME: the istioctl cluster table of one proxy, with usage and counts. */
export async function GET(
  _req: Request,
  ctx: { params: Promise<{ namespace: string; name: string }> },
) {
  const { namespace, name } = await ctx.params;
  return jsonResponse(() =>
    getProxyDetail(decodeURIComponent(namespace), decodeURIComponent(name)),
  );
}
