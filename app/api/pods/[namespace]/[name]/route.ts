import { contextParam, podParams, type PodRouteParams } from '@/app/api/_lib/params';
import { jsonResponse } from '@/server/http';
import { getPodDetail } from '@/server/screens/overview/pod';

export const dynamic = 'force-dynamic';

export function GET(req: Request, ctx: { params: Promise<PodRouteParams> }) {
  return jsonResponse(async () => {
    const { namespace, name } = await podParams(ctx.params);
    return getPodDetail(contextParam(req), namespace, name);
  });
}
