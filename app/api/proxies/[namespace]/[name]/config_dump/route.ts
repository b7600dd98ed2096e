import { routePath, routeQuery } from '@/app/api/_lib/params';
import type { RequestScope } from '@/server/auth/identity';
import { requestScope } from '@/server/auth/request';
import { errorResponse } from '@/server/http';
import { getProxyRawClusters } from '@/server/screens/proxies/detail';

export const dynamic = 'force-dynamic';

/**
 * GET /api/proxies/NS/NAME/config_dump: the proxy's raw cluster sections (dynamic active and
 * static) as a JSON download. Secrets are never requested.
 */
export async function GET(
  req: Request,
  ctx: { params: Promise<{ namespace: string; name: string }> },
) {
  let scope: RequestScope | undefined;
  try {
    scope = requestScope(req);
    const s = scope;
    await routeQuery(
      s,
      '/api/proxies/[namespace]/[name]/config_dump',
      new URL(req.url).searchParams,
    );
    const { ns, pod, body } = await routePath(
      s,
      '/api/proxies/[namespace]/[name]/config_dump',
      ctx.params,
      async (p) => ({
        ns: p.namespace,
        pod: p.name,
        body: await getProxyRawClusters(s, p.namespace, p.name),
      }),
    );
    return new Response(body, {
      headers: {
        'Content-Type': 'application/json',
        'Content-Disposition': `attachment; filename="${ns}_${pod}_clusters.json"`,
        'Cache-Control': 'no-store',
      },
    });
  } catch (e) {
    return errorResponse(e, scope?.identity);
  }
}
