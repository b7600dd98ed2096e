import { contextParam } from '@/app/api/_lib/params';
import { jsonResponse } from '@/server/http';
import { getFindings } from '@/server/screens/findings/findings';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return jsonResponse(() => getFindings(contextParam(req)));
}
