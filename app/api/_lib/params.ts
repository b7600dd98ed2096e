import { queryParams, type ParamKind } from '@/lib/api/param-kinds';
import { requireName } from '@/lib/kube/names';
import { requireNamespace } from '@/server/kube/namespaces';
import { runtimeFor } from '@/server/runtime/registry';
import type { RequestScope } from '@/server/auth/identity';
import { requestScope } from '@/server/auth/request';
import { scopedJsonResponse } from '@/server/http';

export interface PodRouteParams {
  namespace: string;
  name: string;
}

/**
 * The NAMESPACE/NAME of a pod route, validated. Next has already percent-decoded route params
 * once: decoding again would turn `a%25zz` into `a%zz` and then fail with "URI malformed", so
 * the params are used as given and checked against Kubernetes' name rules (InvalidNameError,
 * answered as 400 INVALID_NAME). Await it inside the handler's try so the error is JSON.
 */
export async function podParams(
  params: Promise<PodRouteParams> | PodRouteParams,
): Promise<PodRouteParams> {
  const { namespace, name } = await params;
  return { namespace: requireName('namespace', namespace), name: requireName('pod', name) };
}

/**
 * Answers `run(scope)` as JSON for a request whose scope (validated `?context=`, and the
 * identity MESHDX_AUTH says it acts as) is resolved first, through the edge's one door
 * (server/auth/request.ts): a request without an identity is the 401 naming what is missing,
 * a bad context the 400 naming it.
 */
export function scoped<T>(
  req: Request,
  run: (scope: RequestScope) => Promise<T> | T,
): Promise<Response> {
  return scopedJsonResponse(() => requestScope(req), run);
}

/**
 * The filters of a request, each checked by its kind (lib/api/param-kinds.ts: a bad value is the
 * 400 naming it), and a namespace among them checked against the cluster (404 naming it when it
 * does not exist). The one door every route's query parameters go through.
 */
export async function filterParams<S extends Record<string, ParamKind>>(
  scope: RequestScope,
  params: URLSearchParams,
  spec: S,
): Promise<{ [K in keyof S]?: string }> {
  const values = queryParams(params, spec);
  const ns = (values as Record<string, string | undefined>).namespace;
  if ('namespace' in spec && ns !== undefined)
    await requireNamespace(runtimeFor(scope).transport, ns);
  return values;
}
