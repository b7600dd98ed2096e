/**
 * The cluster context a page or API call is about travels in the URL as `?context=NAME`
 * (absent: meshdx's default context), so deep links and screenshot reports keep the cluster.
 */
export const CONTEXT_PARAM = 'context';

/** `path` with the context added to its query (nothing when `context` is null or empty). */
export function withContext(path: string, context: string | null | undefined): string {
  if (!context) return path;
  const hash = path.indexOf('#');
  const base = hash >= 0 ? path.slice(0, hash) : path;
  const frag = hash >= 0 ? path.slice(hash) : '';
  const sep = base.includes('?') ? '&' : '?';
  return `${base}${sep}${CONTEXT_PARAM}=${encodeURIComponent(context)}${frag}`;
}

/** The context named by search params (a page's or a request's), or null for the default. */
export function contextFrom(
  params: URLSearchParams | Record<string, string | string[] | undefined>,
): string | null {
  const v = params instanceof URLSearchParams ? params.get(CONTEXT_PARAM) : params[CONTEXT_PARAM];
  const first = Array.isArray(v) ? v[0] : v;
  return first ? first : null;
}
