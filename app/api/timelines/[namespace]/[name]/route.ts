import { scoped, podParams, type PodRouteParams } from '@/app/api/_lib/params';
import { getPodTimeline } from '@/server/screens/timelines/timelines';

export const dynamic = 'force-dynamic';

/** One pod's timeline and Gantt (also for a pod that was deleted while meshdx watched). */
export function GET(req: Request, ctx: { params: Promise<PodRouteParams> }) {
  return scoped(req, async (scope) => {
    const { namespace, name } = await podParams(ctx.params);
    return getPodTimeline(scope, namespace, name);
  });
}
