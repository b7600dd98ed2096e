import { jsonResponse } from '@/server/http';
import { getPodDetail } from '@/server/services/pod';

export const dynamic = 'force-dynamic';

export async function GET(
  _req: Request,
  ctx: { params: Promise<{ namespace: string; name: string }> },
) {
  const { namespace, name } = await ctx.params;
  return jsonResponse(() => getPodDetail(decodeURIComponent(namespace), decodeURIComponent(name)));
}
