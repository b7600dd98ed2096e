import { recorderStatus } from '@/server/history';
import { jsonResponse } from '@/server/http';
import { getClusterInfo } from '@/server/services/cluster-info';

export const dynamic = 'force-dynamic';

/** Liveness plus what an operator needs to trust the history: cluster reachability and the recorder's watches. */
export function GET() {
  return jsonResponse(async () => ({ cluster: await getClusterInfo(), history: recorderStatus() }));
}
