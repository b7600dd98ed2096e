/**
 * The cluster context a page or API call is about travels in the URL as `?context=NAME`
 * (absent: meshdx's default context), so deep links and screenshot reports keep the cluster.
 */
import { checkParam } from './param-kinds';

export const CONTEXT_PARAM = 'context';

type SearchParams = URLSearchParams | Record<string, string | string[] | undefined>;

/** `path` with the context added to its query (nothing when `context` is null or empty). */
export function withContext(path: string, context: string | null | undefined): string {
  if (!context) return path;
  const hash = path.indexOf('#');
  const base = hash >= 0 ? path.slice(0, hash) : path;
  const frag = hash >= 0 ? path.slice(hash) : '';
  const sep = base.includes('?') ? '&' : '?';
  return `${base}${sep}${CONTEXT_PARAM}=${encodeURIComponent(context)}${frag}`;
}

/**
 * `path` with a query (its text without the '?', or its parameters; nothing when empty) and the
 * context: the link to a view or an API route with what it was asked.
 */
export function linkTo(
  path: string,
  query: string | URLSearchParams,
  context: string | null | undefined,
): string {
  const q = query.toString();
  return withContext(q ? `${path}?${q}` : path, context);
}

/**
 * The `?context=` as the URL has it (first value; absent or empty: null), unchecked. For the
 * browser, which passes it on to the API: the server reads it with contextFrom.
 */
export function urlContext(params: SearchParams): string | null {
  const v = params instanceof URLSearchParams ? params.get(CONTEXT_PARAM) : params[CONTEXT_PARAM];
  const first = Array.isArray(v) ? v[0] : v;
  return first ? first : null;
}

/**
 * The context named by a page's or a request's search params, or null for the default,
 * validated as a kubeconfig context name can be: printable ASCII, at most 253 characters.
 * Anything else is a 400 INVALID_PARAMETER naming the value (RequestError).
 */
export function contextFrom(params: SearchParams): string | null {
  const v = urlContext(params);
  if (v === null) return null;
  return checkParam('context', CONTEXT_PARAM, v);
}
