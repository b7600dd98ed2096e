import { jsonResponse } from '@/server/http';
import { getClusterInfo } from '@/server/services/cluster-info';

export const dynamic = 'force-dynamic';

export function GET() {
  return jsonResponse(() => getClusterInfo());
}
