import { jsonResponse } from '@/server/http';
import { getTimelineFleet } from '@/server/services/timelines';

export const dynamic = 'force-dynamic';

/** Every meshed pod's startup mode and verdicts, counts, gaps per workload, fixes. */
export function GET() {
  return jsonResponse(() => getTimelineFleet());
}
