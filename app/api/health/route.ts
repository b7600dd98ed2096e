import { contextParam } from '@/app/api/_lib/params';
import { jsonResponse } from '@/server/http';
import { getHealth } from '@/server/screens/cluster/health';

export const dynamic = 'force-dynamic';

/** Liveness plus what an operator needs to trust the history: reachability and each runtime's watches. */
export function GET(req: Request) {
  return jsonResponse(() => getHealth(contextParam(req)));
}
