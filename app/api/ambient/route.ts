import { contextParam } from '@/app/api/_lib/params';
import { jsonResponse } from '@/server/http';
import { getAmbient } from '@/server/screens/overview/ambient';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return jsonResponse(() => getAmbient(contextParam(req)));
}
