import { routePath, routeQuery, scoped } from '@/app/api/_lib/params';
import { requestScope } from '@/server/auth/request';
import type { RequestScope } from '@/server/auth/identity';
import { errorResponse } from '@/server/http';
import { deleteSnapshot, readableSnapshot } from '@/server/screens/snapshots/snapshots';

export const dynamic = 'force-dynamic';

interface Params {
  params: Promise<{ id: string }>;
}

/**
 * GET /api/snapshots/ID?context= : the frozen view's JSON, byte for byte as its API served it
 * (what it is, when and by whom are in the X-Meshdx-Snapshot-* headers and GET /api/snapshots).
 */
export async function GET(req: Request, { params }: Params) {
  let scope: RequestScope | undefined;
  try {
    scope = requestScope(req);
    const at = scope;
    await routeQuery(at, '/api/snapshots/[id]', new URL(req.url).searchParams);
    const s = await routePath(at, '/api/snapshots/[id]', params, ({ id }) =>
      readableSnapshot(at, id),
    );
    return new Response(s.body, {
      headers: {
        'Content-Type': 'application/json',
        'Cache-Control': 'no-store',
        'X-Meshdx-Snapshot-View': s.view,
        'X-Meshdx-Snapshot-Frozen-At': new Date(s.frozenAt).toISOString(),
        ...(s.madeBy !== null ? { 'X-Meshdx-Snapshot-By': encodeURIComponent(s.madeBy) } : {}),
      },
    });
  } catch (e) {
    return errorResponse(e, scope?.identity);
  }
}

/** DELETE /api/snapshots/ID?context= : removes it (its maker only, when it has one). */
export async function DELETE(req: Request, { params }: Params) {
  return scoped(req, async (scope) => {
    await routeQuery(scope, '/api/snapshots/[id]', new URL(req.url).searchParams);
    return routePath(scope, '/api/snapshots/[id]', params, ({ id }) => deleteSnapshot(scope, id));
  });
}
