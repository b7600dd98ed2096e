import { contextParam, podParams, type PodRef } from '@/app/api/_lib/params';
import { jsonResponse } from '@/server/http';
import { getPodDetail } from '@/server/screens/overview/pod';

export const dynamic = 'force-dynamic';

export function GET(req: Request, ctx: { params: Promise<PodRef> }) {
  return jsonResponse(async () => {
    const { namespace, name } = await podParams(ctx.params);
    return getPodDetail(contextParam(req), namespace, name);
  });
}
