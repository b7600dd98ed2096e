import { contextParam } from '@/app/api/_lib/params';
import { jsonResponse } from '@/server/http';
import { getClusterInfo } from '@/server/screens/cluster/info';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return jsonResponse(() => getClusterInfo(contextParam(req)));
}
