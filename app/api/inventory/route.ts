import { jsonResponse } from '@/server/http';
import { getInventory } from '@/server/services/inventory';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  const ns = new URL(req.url).searchParams.get('namespace');
  return jsonResponse(() => getInventory(ns));
}
