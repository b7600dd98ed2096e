import { jsonResponse } from '@/server/http';
import { getFindings } from '@/server/services/findings';

export const dynamic = 'force-dynamic';

export function GET() {
  return jsonResponse(() => getFindings());
}
