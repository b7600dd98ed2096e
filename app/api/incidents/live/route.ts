import { routeQuery } from '@/app/api/_lib/params';
import { badParameter } from '@/lib/api/request-error';
import { parseViewState } from '@/lib/api/viewstate';
import { parseTimeParam, TIME_FORMS_HINT } from '@/lib/api/time-param';
import type { RequestScope } from '@/server/auth/identity';
import { requestScope } from '@/server/auth/request';
import { errorResponse } from '@/server/http';
import { runtimeFor } from '@/server/runtime/registry';
import { followIncidents } from '@/server/screens/incidents/live';
import { windowOf } from '@/server/screens/window';

export const dynamic = 'force-dynamic';

/**
 * GET /api/incidents/live?context=&client=&service=&ip=&since= : server-sent events, one `batch`
 * event per half second with the failing requests the followed client logs wrote since `since`,
 * attributed as they arrived. Closing the connection ends every log follow.
 */
export async function GET(req: Request) {
  let scope: RequestScope | undefined;
  try {
    scope = requestScope(req);
    const win = windowOf(scope, new URL(req.url).searchParams);
    const { values, params } = await routeQuery(scope, '/api/incidents/live', win.params);
    const rt = runtimeFor(scope);
    let since: string | undefined;
    if (values.since !== undefined) {
      const t = parseTimeParam(values.since, () => rt.now().getTime());
      if (!t.ok) throw badParameter('since', t.problem, TIME_FORMS_HINT);
      since = t.iso;
    }
    const state = parseViewState('incidents', params);
    const abort = new AbortController();
    req.signal.addEventListener('abort', () => abort.abort(), { once: true });
    const enc = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        const write = (text: string) => {
          if (abort.signal.aborted) return;
          try {
            controller.enqueue(enc.encode(text));
          } catch {
            abort.abort();
          }
        };
        write(': live\n\n');
        const ping = setInterval(() => write(': ping\n\n'), 15_000);
        followIncidents(rt, state, {
          since,
          signal: abort.signal,
          send: (b) => write(`event: batch\ndata: ${JSON.stringify(b)}\n\n`),
        })
          .catch((e: unknown) =>
            write(
              `event: failure\ndata: ${JSON.stringify({ message: e instanceof Error ? e.message : String(e) })}\n\n`,
            ),
          )
          .finally(() => {
            clearInterval(ping);
            write('event: end\ndata: {}\n\n');
            try {
              controller.close();
            } catch {
              // already closed by the client
            }
          });
      },
      cancel() {
        abort.abort();
      },
    });
    return new Response(stream, {
      headers: {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store, no-transform',
        Connection: 'keep-alive',
        'X-Accel-Buffering': 'no',
      },
    });
  } catch (e) {
    return errorResponse(e, scope?.identity);
  }
}
