import { routeQuery } from '@/app/api/_lib/params';
import { signOut } from '@/server/auth/login';
import { errorResponse } from '@/server/http';

export const dynamic = 'force-dynamic';

/** POST /api/session/logout: ends the session (cookie cleared, the user's runtimes stopped). */
export async function POST(req: Request) {
  try {
    await routeQuery(null, '/api/session/logout', new URL(req.url).searchParams);
  } catch (e) {
    return errorResponse(e);
  }
  return signOut(req);
}
