import { scoped } from '@/app/api/_lib/params';
import { getScoping } from '@/server/screens/scoping/scoping';

export const dynamic = 'force-dynamic';

/** GET /api/scoping: the Scoping view model. `?refresh=1` skips the short server cache. */
export function GET(req: Request) {
  return scoped(req, (scope) => {
    const refresh = new URL(req.url).searchParams.get('refresh') === '1';
    return getScoping(scope, { refresh });
  });
}
