import { jsonResponse } from '@/server/http';
import { getContexts } from '@/server/screens/cluster/info';

export const dynamic = 'force-dynamic';

/** GET /api/contexts: the kubeconfig's contexts (name, cluster server, current), or in-cluster. */
export function GET() {
  return jsonResponse(() => getContexts());
}
