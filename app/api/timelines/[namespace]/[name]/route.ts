import { jsonResponse } from '@/server/http';
import { getPodTimeline } from '@/server/services/timelines';

export const dynamic = 'force-dynamic';

/** One pod's timeline and Gantt (also for a pod that was deleted while meshdx watched). */
export async function GET(
  _req: Request,
  ctx: { params: Promise<{ namespace: string; name: string }> },
) {
  const { namespace, name } = await ctx.params;
  return jsonResponse(() =>
    getPodTimeline(decodeURIComponent(namespace), decodeURIComponent(name)),
  );
}
