import { routeQuery, scoped } from '@/app/api/_lib/params';
import { badParameter } from '@/lib/api/request-error';
import { getBloat } from '@/server/screens/scoping/bloat';
import { windowOf } from '@/server/screens/window';

export const dynamic = 'force-dynamic';

/**
 * GET /api/scoping/bloat?namespace=NS[&workload=W][&from=RFC3339&to=RFC3339][&context=]: a
 * namespace's (or workload's) clusters per proxy over the window (default the last hour), from
 * Prometheus, with the Sidecar resources applied in it and Scoping's figures.
 */
export function GET(req: Request) {
  return scoped(req, async (scope) => {
    const win = windowOf(scope, new URL(req.url).searchParams);
    const { values } = await routeQuery(scope, '/api/scoping/bloat', win.params);
    const { namespace, workload, from, to } = values;
    if (namespace === undefined)
      throw badParameter(
        'namespace',
        'is required',
        'name the namespace to chart, e.g. ?namespace=shop',
      );
    if ((from === undefined) !== (to === undefined))
      throw badParameter(
        from === undefined ? 'from' : 'to',
        'is missing',
        'give both from and to, or neither (the last hour)',
      );
    return getBloat(scope, {
      namespace,
      workload: workload ?? null,
      // windowOf made both absolute (RFC 3339)
      ...(from !== undefined && to !== undefined
        ? { fromMs: Date.parse(from), toMs: Date.parse(to) }
        : {}),
    });
  });
}
