import { routeQuery, scoped } from '@/app/api/_lib/params';
import { findingsChanges } from '@/server/screens/findings/findings';

export const dynamic = 'force-dynamic';

/** The revision of the configuration changes heard: the Findings page polls it (FOLLOW_POLL_MS). */
export function GET(req: Request) {
  return scoped(req, async (scope) => {
    await routeQuery(scope, '/api/findings/changes', new URL(req.url).searchParams);
    return findingsChanges(scope);
  });
}
