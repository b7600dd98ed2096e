import { sessionInfo, signIn } from '@/server/auth/login';
import { routeQuery } from '@/app/api/_lib/params';
import { errorResponse, jsonResponse } from '@/server/http';

export const dynamic = 'force-dynamic';

/** GET /api/session: the auth mode (MESHDX_AUTH) and who you are, or why nobody. */
export function GET(req: Request) {
  return jsonResponse(async () => {
    await routeQuery(null, '/api/session', new URL(req.url).searchParams);
    return sessionInfo(req);
  });
}

/** POST /api/session (token mode): sign in with a Kubernetes bearer token (form or JSON). */
export async function POST(req: Request) {
  try {
    await routeQuery(null, '/api/session', new URL(req.url).searchParams);
  } catch (e) {
    return errorResponse(e);
  }
  return signIn(req);
}
