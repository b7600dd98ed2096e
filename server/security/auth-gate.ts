/**
 * The first check of per-user identity (MESHDX_AUTH), in the proxy before any page or API runs:
 * a request that carries no identity at all goes to the login (pages, token mode) or gets a 401
 * naming the mode (the API; pages in header mode). Whether the identity is valid (the cookie
 * unsealed, not expired) is decided where it is used (server/auth), which answers 401 as well.
 */
import { cookieValue, SESSION_COOKIE } from '../auth/session';
import type { AuthSettings } from '../auth/identity';
import { isApiPath, type Refusal } from './guard';

/** Paths served without an identity: the login itself, the session API, the kubelet's probe, the Prometheus scrape, assets. */
export function isOpenPath(pathname: string): boolean {
  return (
    pathname === '/login' ||
    pathname === '/api/session' ||
    pathname === '/api/session/logout' ||
    pathname === '/api/health' ||
    pathname === '/api/metrics' ||
    pathname.startsWith('/_next/') ||
    pathname === '/favicon.ico'
  );
}

export type GateResult = { redirect: string } | { refusal: Refusal } | null;

export function authGate(
  settings: AuthSettings,
  req: { pathname: string; search: string; headers: Pick<Headers, 'get'> },
): GateResult {
  const mode = settings.MESHDX_AUTH;
  if (mode === 'none' || isOpenPath(req.pathname)) return null;
  if (mode === 'token') {
    if (cookieValue(req.headers.get('cookie'), SESSION_COOKIE)) return null;
    if (!isApiPath(req.pathname)) return { redirect: '/login?reason=NO_SESSION' };
    return {
      refusal: {
        status: 401,
        code: 'NO_SESSION',
        message: 'meshdx runs with MESHDX_AUTH=token: sign in first',
        hint: 'Sign in at /login with a Kubernetes bearer token (POST /api/session for scripts).',
        headers: { 'WWW-Authenticate': 'Cookie realm="meshdx"' },
      },
    };
  }
  const header = settings.MESHDX_AUTH_USER_HEADER;
  if ((req.headers.get(header) ?? '').trim() !== '') return null;
  return {
    refusal: {
      status: 401,
      code: 'NO_PROXY_IDENTITY',
      message: `meshdx runs with MESHDX_AUTH=header and expects an authenticating proxy in front of it to set ${header}; this request has none`,
      hint: 'Open meshdx through its authenticating proxy (oauth2-proxy or similar); meshdx must not be reachable around it.',
    },
  };
}
