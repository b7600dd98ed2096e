import { contextParam } from '@/app/api/_lib/params';
import { jsonResponse } from '@/server/http';
import { getTimelineFleet } from '@/server/screens/timelines/timelines';

export const dynamic = 'force-dynamic';

/** Every meshed pod's startup mode and verdicts, counts, gaps per workload, fixes. */
export function GET(req: Request) {
  return jsonResponse(() => getTimelineFleet(contextParam(req)));
}
