import { ALLOWED_HOSTS_SETTING } from './config';
import { isHostAllowed, isOriginAllowed, type HostAllowlist } from './hosts';

export interface RequestFacts {
  method: string;
  pathname: string;
  host: string | null;
  origin: string | null;
  /**
   * The browser's own Fetch Metadata (`Sec-Fetch-Site`, which no page can set). A form posted by
   * meshdx's own page under `Referrer-Policy: no-referrer` carries `Origin: null`; with
   * `Sec-Fetch-Site: same-origin` it is still known to come from meshdx itself.
   */
  secFetchSite?: string | null;
}

export interface Refusal {
  status: number;
  code:
    | 'HOST_NOT_ALLOWED'
    | 'CROSS_ORIGIN_REFUSED'
    | 'INVALID_CONFIG'
    | 'METHOD_NOT_ALLOWED'
    | 'INVALID_REQUEST'
    | 'NOT_FOUND'
    | 'NO_SESSION'
    | 'NO_PROXY_IDENTITY'
    | 'AMBIGUOUS_PROXY_IDENTITY';
  message: string;
  hint: string;
  /** Extra response headers (`Allow` on a 405). */
  headers?: Record<string, string>;
}

/**
 * The methods each path answers: the upload and the session routes take POST, every other API route and every page
 * GET and HEAD (OPTIONS is answered with the same Allow). Anything else, TRACE included, is a
 * 405 that says what is allowed, before Next sees it.
 */
export function allowedMethods(pathname: string): string[] {
  if (pathname === '/api/incidents/upload') return ['POST', 'OPTIONS'];
  // sign-in (token mode) and sign-out
  if (pathname === '/api/session') return ['GET', 'HEAD', 'POST', 'OPTIONS'];
  if (pathname === '/api/session/logout') return ['POST', 'OPTIONS'];
  // freezing a view (Share) and deleting a frozen one
  if (pathname === '/api/snapshots') return ['GET', 'HEAD', 'POST', 'OPTIONS'];
  if (/^\/api\/snapshots\/[^/]+$/.test(pathname)) return ['GET', 'HEAD', 'DELETE', 'OPTIONS'];
  return ['GET', 'HEAD', 'OPTIONS'];
}

/**
 * A request meshdx cannot route as written: a path with malformed percent-encoding (`%zz`, a
 * lone `%FF` that is not UTF-8) is a 400 naming the bad escape; a method the path does not
 * take is a 405 with `Allow`.
 */
export function checkShape(method: string, rawPathname: string): Refusal | null {
  for (const segment of rawPathname.split('/')) {
    try {
      decodeURIComponent(segment);
    } catch {
      const bad = /%(?![0-9A-Fa-f]{2})..?|%[0-9A-Fa-f]{2}(?:%[0-9A-Fa-f]{2})*/.exec(segment)?.[0];
      return {
        status: 400,
        code: 'INVALID_REQUEST',
        message: `the path segment ${JSON.stringify(segment)} has malformed percent-encoding${bad ? ` (${bad})` : ''}`,
        hint: 'Percent-encode names as UTF-8 (encodeURIComponent); Kubernetes names need no encoding at all.',
      };
    }
  }
  const m = method.toUpperCase();
  const allowed = allowedMethods(rawPathname);
  if (!allowed.includes(m)) {
    return {
      status: 405,
      code: 'METHOD_NOT_ALLOWED',
      message: `${m} is not allowed on ${rawPathname}`,
      hint: `Use ${allowed.filter((x) => x !== 'OPTIONS').join(' or ')}.`,
      headers: { Allow: allowed.join(', ') },
    };
  }
  return null;
}

const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether the request is for the JSON API (answered with a JSON error) or a page. */
export function isApiPath(pathname: string): boolean {
  return pathname === '/api' || pathname.startsWith('/api/');
}

/**
 * Decides whether meshdx answers a request at all: its Host must be an allowed name (421
 * Misdirected Request otherwise: this server is not the one that name should reach), and a
 * browser's cross-site POST (an Origin that is not an allowed host) is refused (403).
 */
export function checkRequest(req: RequestFacts, allow: HostAllowlist): Refusal | null {
  if (!isHostAllowed(req.host, allow)) {
    const shown = req.host === null || req.host === '' ? '(none)' : JSON.stringify(req.host);
    return {
      status: 421,
      code: 'HOST_NOT_ALLOWED',
      message: `meshdx does not answer to the host name ${shown}`,
      hint: `Open meshdx as http://localhost:PORT (kubectl port-forward), or add the name you use (an ingress host) to ${ALLOWED_HOSTS_SETTING}, comma-separated.`,
    };
  }
  const shape = checkShape(req.method, req.pathname);
  if (shape) return shape;
  const sameOriginForm = req.origin === 'null' && req.secFetchSite === 'same-origin';
  if (
    !SAFE_METHODS.has(req.method.toUpperCase()) &&
    !sameOriginForm &&
    !isOriginAllowed(req.origin, allow)
  ) {
    return {
      status: 403,
      code: 'CROSS_ORIGIN_REFUSED',
      message: `meshdx refuses a ${req.method.toUpperCase()} sent from another site (Origin ${JSON.stringify(req.origin)})`,
      hint: `Use meshdx's own page, or a client that sends no Origin; if that origin is meshdx behind an ingress, add its host name to ${ALLOWED_HOSTS_SETTING}.`,
    };
  }
  return null;
}

/** What every request gets while the security settings are invalid: nothing but the reason. */
export function configRefusal(message: string): Refusal {
  return {
    status: 500,
    code: 'INVALID_CONFIG',
    message,
    hint: 'Fix the setting and restart meshdx; until then it answers no request.',
  };
}

/** The body of a refusal: `{error:{code,message,hint}}` for the API, a short text for pages. */
export function refusalBody(r: Refusal, pathname: string): { contentType: string; body: string } {
  if (isApiPath(pathname))
    return {
      contentType: 'application/json',
      body: JSON.stringify({ error: { code: r.code, message: r.message, hint: r.hint } }),
    };
  return {
    contentType: 'text/plain; charset=utf-8',
    body: `${r.message}.\n\n${r.hint}\n`,
  };
}
