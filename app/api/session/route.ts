import { sessionInfo, signIn } from '@/server/auth/login';
import { jsonResponse } from '@/server/http';

export const dynamic = 'force-dynamic';

/** GET /api/session: the auth mode (MESHDX_AUTH) and who you are, or why nobody. */
export function GET(req: Request) {
  return jsonResponse(() => sessionInfo(req));
}

/** POST /api/session (token mode): sign in with a Kubernetes bearer token (form or JSON). */
export function POST(req: Request) {
  return signIn(req);
}
