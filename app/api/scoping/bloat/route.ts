import { scoped } from '@/app/api/_lib/params';
import { badParameter } from '@/lib/api/request-error';
import { requireName } from '@/lib/kube/names';
import { getBloat } from '@/server/screens/scoping/bloat';
import { windowOf } from '@/server/screens/window';

export const dynamic = 'force-dynamic';

/**
 * GET /api/scoping/bloat?namespace=NS[&workload=W][&from=RFC3339&to=RFC3339][&context=]: a
 * namespace's (or workload's) clusters per proxy over the window (default the last hour), from
 * Prometheus, with the Sidecar resources applied in it and Scoping's figures.
 */
export function GET(req: Request) {
  return scoped(req, (scope) => {
    const { params: sp } = windowOf(scope, new URL(req.url).searchParams);
    const ns = sp.get('namespace');
    if (!ns)
      throw badParameter(
        'namespace',
        'is required',
        'name the namespace to chart, e.g. ?namespace=shop',
      );
    const namespace = requireName('namespace', ns);
    const workload = sp.get('workload') || null;
    const from = sp.get('from');
    const to = sp.get('to');
    if ((from === null) !== (to === null))
      throw badParameter(
        from === null ? 'from' : 'to',
        'is missing',
        'give both from and to, or neither (the last hour)',
      );
    return getBloat(scope, {
      namespace,
      workload,
      ...(from !== null && to !== null ? { fromMs: Date.parse(from), toMs: Date.parse(to) } : {}),
    });
  });
}
