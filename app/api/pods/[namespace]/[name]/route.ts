import { routePath, routeQuery, scoped } from '@/app/api/_lib/params';
import { getPodDetail } from '@/server/screens/overview/pod';

export const dynamic = 'force-dynamic';

export function GET(req: Request, ctx: { params: Promise<{ namespace: string; name: string }> }) {
  return scoped(req, async (scope) => {
    const q = await routeQuery(
      scope,
      '/api/pods/[namespace]/[name]',
      new URL(req.url).searchParams,
    );
    return routePath(scope, '/api/pods/[namespace]/[name]', ctx.params, ({ namespace, name }) =>
      getPodDetail(scope, namespace, name, q.values.uid ?? null),
    );
  });
}
