import { routeQuery } from '@/app/api/_lib/params';
import { contextFrom } from '@/lib/api/context';
import { asMeshdx } from '@/server/auth/identity';
import { errorResponse } from '@/server/http';
import { getMetrics } from '@/server/screens/metrics/metrics';

export const dynamic = 'force-dynamic';

/**
 * GET /api/metrics?context= : meshdx's health and what its views found, in Prometheus' text
 * format, for a Prometheus scrape. Answered as meshdx itself whatever MESHDX_AUTH says, as
 * /api/health is: a scraper has no user, and the figures are counts of meshdx's own views.
 */
export async function GET(req: Request) {
  try {
    await routeQuery(null, '/api/metrics', new URL(req.url).searchParams);
    const m = await getMetrics(asMeshdx(contextFrom(new URL(req.url).searchParams)));
    return new Response(m.text, {
      headers: { 'Content-Type': m.contentType, 'Cache-Control': 'no-store' },
    });
  } catch (e) {
    return errorResponse(e);
  }
}
