import type { FleetProgress, FleetStreamLine } from '@/lib/api/proxies';
import { routeQuery, scoped } from '@/app/api/_lib/params';
import type { RequestScope } from '@/server/auth/identity';
import { requestScope } from '@/server/auth/request';
import { errorResponse, toErrorResult } from '@/server/http';
import { runtimeFor } from '@/server/runtime/registry';
import type { ClusterRuntime } from '@/server/runtime/runtime';
import { cachedFleet, fleetScan, getFleet, withApi } from '@/server/screens/proxies/fleet';
import { pageFleet, parseFleetQuery, type FleetQuery } from '@/lib/proxies/page';

export const dynamic = 'force-dynamic';

/** Progress lines are written at most this often (plus the first and the last). */
const PROGRESS_EVERY_MS = 100;

/**
 * GET /api/proxies/fleet: the fleet view model. With `?stream=1` the answer is NDJSON: progress
 * lines (`{"type":"progress","done":412,"total":1200,...}`) while the scan runs, then one
 * `{"type":"result","fleet":...}` line (or `{"type":"error",...}`). `?refresh=1` skips the
 * short server cache. `namespace`, `workload`, `q`, `sort`, `dir`, `offset` and `limit` (default
 * 50, at most 500) pick the rows sent: a screen of 50 rows never ships the whole fleet.
 */
export async function GET(req: Request) {
  let asked: RequestScope | undefined;
  let refresh: boolean;
  let streamed: boolean;
  let query: FleetQuery;
  try {
    // the parameters are checked before any scan starts: a bad one is the 400 naming it
    asked = requestScope(req);
    const q = await routeQuery(asked, '/api/proxies/fleet', new URL(req.url).searchParams);
    refresh = q.values.refresh === true;
    streamed = q.values.stream === true;
    query = parseFleetQuery(q.params);
  } catch (e) {
    return errorResponse(e, asked?.identity);
  }
  if (!streamed) return scoped(req, (scope) => getFleet(scope, { refresh, query }));
  const enc = new TextEncoder();
  let closed = false;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const write = (line: FleetStreamLine) => {
        if (closed) return;
        try {
          controller.enqueue(enc.encode(JSON.stringify(line) + '\n'));
        } catch {
          closed = true;
        }
      };
      const end = () => {
        if (closed) return;
        closed = true;
        controller.close();
      };
      let rt: ClusterRuntime;
      let scope: RequestScope | undefined;
      try {
        scope = requestScope(req);
        rt = runtimeFor(scope);
      } catch (e) {
        write({ type: 'error', error: toErrorResult(e, scope?.identity).body.error });
        end();
        return;
      }
      const cached = refresh ? null : cachedFleet(rt);
      if (cached) {
        write({ type: 'result', fleet: pageFleet(withApi(rt, cached), query) });
        end();
        return;
      }
      let last = 0;
      let pending: FleetProgress | null = null;
      const onProgress = (p: FleetProgress) => {
        const now = Date.now();
        if (now - last >= PROGRESS_EVERY_MS || p.done === 0 || p.done === p.total) {
          last = now;
          pending = null;
          write(p);
        } else pending = p;
      };
      let scan: ReturnType<typeof fleetScan>;
      try {
        scan = fleetScan(rt, onProgress);
      } catch (e) {
        write({ type: 'error', error: toErrorResult(e, scope.identity).body.error });
        end();
        return;
      }
      scan.promise.then(
        (fleet) => {
          if (pending) write(pending);
          write({ type: 'result', fleet: pageFleet(withApi(rt, fleet), query) });
          end();
        },
        (e: unknown) => {
          write({ type: 'error', error: toErrorResult(e, scope.identity).body.error });
          end();
        },
      );
    },
    cancel() {
      // the browser went away: the scan goes on and its result is cached for the next visit
      closed = true;
    },
  });
  return new Response(stream, {
    headers: {
      'Content-Type': 'application/x-ndjson; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Accel-Buffering': 'no',
    },
  });
}
