import { signOut } from '@/server/auth/login';

export const dynamic = 'force-dynamic';

/** POST /api/session/logout: ends the session (cookie cleared, the user's runtimes stopped). */
export function POST(req: Request) {
  return signOut(req);
}
