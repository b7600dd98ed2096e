import { routeQuery } from '@/app/api/_lib/params';
import { contextFrom } from '@/lib/api/context';
import { asMeshdx } from '@/server/auth/identity';
import { jsonResponse } from '@/server/http';
import { otlpReceiverStatus } from '@/server/otlp';
import { getHealth } from '@/server/screens/cluster/health';

export const dynamic = 'force-dynamic';

/**
 * Liveness plus what an operator needs to trust the history: reachability and each runtime's
 * watches, and the OTLP access-log receiver's counters (received, stored, dropped, refused;
 * null when it is off). Answered as meshdx itself whatever MESHDX_AUTH says: the kubelet's readiness probe
 * has no user, and what it reports is meshdx's own state.
 */
export function GET(req: Request) {
  return jsonResponse(async () => {
    await routeQuery(null, '/api/health', new URL(req.url).searchParams);
    return {
      ...(await getHealth(asMeshdx(contextFrom(new URL(req.url).searchParams)))),
      otlp: otlpReceiverStatus(),
    };
  });
}
