import { scoped } from '@/app/api/_lib/params';
import { getInventory } from '@/server/screens/overview/inventory';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return scoped(req, (scope) => {
    const ns = new URL(req.url).searchParams.get('namespace');
    return getInventory(scope, ns);
  });
}
