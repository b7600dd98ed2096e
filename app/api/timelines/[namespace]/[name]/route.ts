import { routePath, routeQuery, scoped } from '@/app/api/_lib/params';
import { getPodTimeline } from '@/server/screens/timelines/timelines';

export const dynamic = 'force-dynamic';

/**
 * One pod's timeline and Gantt (also for a pod that was deleted while meshdx watched); `?uid=`
 * picks one pod of the name (a deleted one whose namesake now runs).
 */
export function GET(req: Request, ctx: { params: Promise<{ namespace: string; name: string }> }) {
  return scoped(req, async (scope) => {
    const q = await routeQuery(
      scope,
      '/api/timelines/[namespace]/[name]',
      new URL(req.url).searchParams,
    );
    return routePath(
      scope,
      '/api/timelines/[namespace]/[name]',
      ctx.params,
      ({ namespace, name }) => getPodTimeline(scope, namespace, name, q.values.uid ?? null),
    );
  });
}
