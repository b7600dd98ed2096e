import { contextParam } from '@/app/api/_lib/params';
import { jsonResponse } from '@/server/http';
import { getInventory } from '@/server/screens/overview/inventory';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return jsonResponse(() => {
    const ns = new URL(req.url).searchParams.get('namespace');
    return getInventory(contextParam(req), ns);
  });
}
