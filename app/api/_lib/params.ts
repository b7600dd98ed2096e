import { checkParam, queryParams, type ParamKind, type ParamValues } from '@/lib/api/param-kinds';
import { CONTEXT_PARAM } from '@/lib/api/context';
import { badParameter } from '@/lib/api/request-error';
import { ROUTE_PARAMS, type ApiRoute, type RouteParamSpec } from '@/lib/api/route-params';
import { requireNamespace } from '@/server/kube/namespaces';
import { runtimeFor } from '@/server/runtime/registry';
import type { RequestScope } from '@/server/auth/identity';
import { requestScope } from '@/server/auth/request';
import { scopedJsonResponse } from '@/server/http';

type QuerySpec<R extends ApiRoute> = (typeof ROUTE_PARAMS)[R]['query'];
type PathSpec<R extends ApiRoute> = (typeof ROUTE_PARAMS)[R] extends {
  path: infer P extends Record<string, ParamKind>;
}
  ? P
  : Record<never, ParamKind>;

/** A route's checked query: the values by kind, and the URL parameters it declares (only those). */
export interface RouteQuery<S extends Record<string, ParamKind>> {
  values: ParamValues<S>;
  /** The declared parameters as given (non-empty): what a route hands to a lib parser. */
  params: URLSearchParams;
}

/** The declared parameters of `given`, as given (empty values left out). */
function declaredOnly(given: URLSearchParams, spec: Readonly<Record<string, ParamKind>>) {
  const out = new URLSearchParams();
  for (const [k, v] of given) if (Object.hasOwn(spec, k) && v !== '') out.append(k, v);
  return out;
}

/**
 * The query of `route`, each parameter checked by the kind ROUTE_PARAMS gives it (a bad value is
 * the 400 naming it; lib/api/param-kinds.ts), a parameter it does not take the 400 naming that,
 * and a namespace among them checked against the cluster (the 404 naming it when it does not
 * exist). The one door every route's query goes through: what it returns in `params` holds only
 * the parameters the route declares. `context` is read by the request's scope.
 */
export async function routeQuery<R extends ApiRoute>(
  scope: RequestScope | null,
  route: R,
  given: URLSearchParams,
): Promise<RouteQuery<QuerySpec<R>>> {
  const spec: QuerySpec<R> = ROUTE_PARAMS[route].query;
  // a parameter the route does not take (a misspelt filter) is named, never ignored
  for (const name of new Set(given.keys()))
    if (!Object.hasOwn(spec, name) && name !== CONTEXT_PARAM) {
      const takes = Object.keys(spec);
      throw badParameter(
        name,
        `is not a parameter of ${route}`,
        takes.length > 0
          ? `It takes ${takes.join(', ')} (and context).`
          : 'It takes no parameters but context.',
      );
    }
  const values = queryParams(given, spec);
  const ns = (values as Record<string, unknown>).namespace;
  if (scope !== null && typeof ns === 'string')
    await requireNamespace(runtimeFor(scope).transport, ns);
  return { values, params: declaredOnly(given, spec) };
}

/**
 * The path segments of `route` ([namespace], [name], [id]), each checked by its kind. Next has
 * already percent-decoded route params once: decoding again would turn `a%25zz` into `a%zz` and
 * then fail with "URI malformed", so they are checked as given. For a route on a live object
 * (ROUTE_PARAMS' liveNamespace), the namespace must exist: asked while `work` runs, and its
 * 404 wins over whatever `work` says of a pod in a namespace that is not there.
 */
export async function routePath<R extends ApiRoute, T>(
  scope: RequestScope,
  route: R,
  segments: Promise<Record<string, string>> | Record<string, string>,
  work: (path: { [K in keyof PathSpec<R>]: string }) => Promise<T> | T,
): Promise<T> {
  const entry: RouteParamSpec = ROUTE_PARAMS[route];
  const spec = entry.path ?? {};
  const given = await segments;
  const path: Record<string, string> = {};
  for (const [name, kind] of Object.entries(spec)) {
    path[name] = String(checkParam(kind, name, given[name] ?? ''));
  }
  const typed = path as { [K in keyof PathSpec<R>]: string };
  const ns = path.namespace;
  if (!entry.liveNamespace || ns === undefined) return work(typed);
  const [exists, done] = await Promise.allSettled([
    requireNamespace(runtimeFor(scope).transport, ns),
    Promise.resolve().then(() => work(typed)),
  ]);
  if (exists.status === 'rejected') throw exists.reason;
  if (done.status === 'rejected') throw done.reason;
  return done.value;
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
