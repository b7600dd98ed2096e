import { routeQuery, scoped } from '@/app/api/_lib/params';
import { findingsChanges } from '@/server/screens/findings/changes';

export const dynamic = 'force-dynamic';

/**
 * The revision of the configuration changes heard; with `after`, held until it is past it (a
 * long poll: the Findings page follows it, components/findings/useFindingsFollow.ts).
 */
export function GET(req: Request) {
  return scoped(req, async (scope) => {
    const q = await routeQuery(scope, '/api/findings/changes', new URL(req.url).searchParams);
    return findingsChanges(scope, q.values.after ?? null);
  });
}
