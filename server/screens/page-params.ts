/**
 * A page's URL through the same rule as an API route's (lib/api/route-params.ts PAGE_PARAMS,
 * each parameter by its kind): a value that does not fit is the problem the page shows, naming
 * the parameter (a 400's error); a namespace the cluster does not have is the 404's error naming
 * it. Never a blank page, never a 500, never a view of something else.
 */
import type { ApiError } from '../../lib/api/errors';
import {
  checkParam,
  queryParams,
  type ParamKind,
  type ParamValues,
} from '../../lib/api/param-kinds';
import { PAGE_PARAMS, type PageRoute, type RouteParamSpec } from '../../lib/api/route-params';
import { isRequestError } from '../../lib/api/request-error';
import { ignoredParams, type IgnoredParam } from '../../lib/api/ignored-params';
import { CONTEXT_PARAM } from '../../lib/api/context';
import type { RequestScope } from '../auth/identity';
import { requireNamespace } from '../kube/namespaces';
import { runtimeFor } from '../runtime/registry';

type Given = URLSearchParams | Record<string, string | string[] | undefined>;
type QuerySpec<P extends PageRoute> = (typeof PAGE_PARAMS)[P]['query'];
type PathSpec<P extends PageRoute> = (typeof PAGE_PARAMS)[P] extends {
  path: infer S extends Record<string, ParamKind>;
}
  ? S
  : Record<never, ParamKind>;

/** What a page shows instead of its view: the error of the request it stands for. */
export type PageProblem = ApiError['error'] & { status: number };

export type PageQuery<P extends PageRoute> =
  | {
      values: ParamValues<QuerySpec<P>>;
      params: URLSearchParams;
      /** Parameters of the link the page does not read: the page names them (IgnoredParams). */
      ignored: IgnoredParam[];
      problem: null;
    }
  | { values: null; params: null; ignored: null; problem: PageProblem };

function toParams(given: Given): URLSearchParams {
  if (given instanceof URLSearchParams) return new URLSearchParams(given);
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(given))
    for (const one of v === undefined ? [] : Array.isArray(v) ? v : [v]) out.append(k, one);
  return out;
}

function decodeOnce(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * requireNamespace for a page: its 404 is the page's problem; a cluster that cannot be asked
 * (unreachable, no kubeconfig, late) is not, since the view's own requests show that failure with
 * its fix, as they do without a namespace.
 */
async function namespaceExists(scope: RequestScope, ns: string): Promise<void> {
  try {
    await requireNamespace(runtimeFor(scope).transport, ns);
  } catch (e) {
    if (isRequestError(e)) throw e;
  }
}

/** A thrown RequestError as the problem a page shows; anything else is rethrown. */
export function pageProblem(e: unknown): PageProblem {
  if (!isRequestError(e)) throw e;
  return {
    status: e.status,
    code: e.code,
    message: e.message,
    ...(e.hint ? { hint: e.hint } : {}),
  };
}

/**
 * The query of `page` checked by PAGE_PARAMS (and a namespace among them against the scope's
 * cluster, when a scope is given): its values and the declared parameters as given, or the
 * problem naming the first bad one, and the parameters it does not read (`context` is read by the
 * request's scope). Parameters named in `without` are left out (the link of the view without its
 * window).
 */
export async function pageQuery<P extends PageRoute>(
  scope: RequestScope | null,
  page: P,
  given: Given,
  without: readonly string[] = [],
): Promise<PageQuery<P>> {
  const spec: QuerySpec<P> = PAGE_PARAMS[page].query;
  try {
    const all = toParams(given);
    for (const name of without) all.delete(name);
    const values = queryParams(all, spec);
    const ns = (values as Record<string, unknown>).namespace;
    if (scope !== null && typeof ns === 'string') await namespaceExists(scope, ns);
    const params = new URLSearchParams();
    for (const [k, v] of all) if (Object.hasOwn(spec, k) && v !== '') params.append(k, v);
    // the window's parameters left out here are read by the page (resolveWindow)
    const ignored = ignoredParams(all, Object.keys(spec), [CONTEXT_PARAM, ...without]);
    return { values, params, ignored, problem: null };
  } catch (e) {
    return { values: null, params: null, ignored: null, problem: pageProblem(e) };
  }
}

/**
 * The path segments of `page` ([namespace], [name], [id]) checked by their kinds, or the problem
 * naming the first bad one. A page's segments arrive percent-encoded: each is decoded once (a
 * malformed escape is checked as it came, and refused like any other bad name).
 */
export function pagePath<P extends PageRoute>(
  page: P,
  segments: Record<string, string>,
):
  | { path: { [K in keyof PathSpec<P>]: string }; problem: null }
  | { path: null; problem: PageProblem } {
  const entry: RouteParamSpec = PAGE_PARAMS[page];
  try {
    const path: Record<string, string> = {};
    for (const [name, kind] of Object.entries(entry.path ?? {}))
      path[name] = String(checkParam(kind, name, decodeOnce(segments[name] ?? '')));
    return { path: path as { [K in keyof PathSpec<P>]: string }, problem: null };
  } catch (e) {
    return { path: null, problem: pageProblem(e) };
  }
}
