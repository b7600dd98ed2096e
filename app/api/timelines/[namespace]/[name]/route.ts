import { contextParam, podParams, type PodRouteParams } from '@/app/api/_lib/params';
import { jsonResponse } from '@/server/http';
import { getPodTimeline } from '@/server/screens/timelines/timelines';

export const dynamic = 'force-dynamic';

/** One pod's timeline and Gantt (also for a pod that was deleted while meshdx watched). */
export function GET(req: Request, ctx: { params: Promise<PodRouteParams> }) {
  return jsonResponse(async () => {
    const { namespace, name } = await podParams(ctx.params);
    return getPodTimeline(contextParam(req), namespace, name);
  });
}
