import { podParams, type PodRef } from '@/app/api/_lib/params';
import { jsonResponse } from '@/server/http';
import { getPodDetail } from '@/server/services/pod';

export const dynamic = 'force-dynamic';

export function GET(_req: Request, ctx: { params: Promise<PodRef> }) {
  return jsonResponse(async () => {
    const { namespace, name } = await podParams(ctx.params);
    return getPodDetail(namespace, name);
  });
}
