import { scoped, podParams, type PodRouteParams } from '@/app/api/_lib/params';
import { getPodDetail } from '@/server/screens/overview/pod';

export const dynamic = 'force-dynamic';

export function GET(req: Request, ctx: { params: Promise<PodRouteParams> }) {
  return scoped(req, async (scope) => {
    const { namespace, name } = await podParams(ctx.params);
    return getPodDetail(scope, namespace, name);
  });
}
