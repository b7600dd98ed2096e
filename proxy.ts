import { NextResponse, type NextRequest } from 'next/server';
import { loadSecurityConfig, type SecurityConfig } from '@/server/security/config';
import {
  allowedMethods,
  checkRequest,
  configRefusal,
  refusalBody,
  isApiPath,
  type Refusal,
} from '@/server/security/guard';
import { buildCsp, newNonce, securityHeaders } from '@/server/security/headers';
import { apiPathProblem } from '@/server/security/api-routes';
import { authGate } from '@/server/security/auth-gate';
import type { AuthSettings } from '@/server/auth/identity';
import { loadEnv } from '@/server/env';

/**
 * Runs before every request (pages, API, static assets; no matcher on purpose): refuses host
 * names meshdx does not answer to (DNS rebinding against a port-forwarded dashboard) and
 * cross-site POSTs, and puts the security headers, with a fresh CSP nonce, on every response.
 * What Next answers before this runs (its 308 for a doubled slash), two Host headers and two
 * identity headers are the dashboard server's (server/security/dashboard-server.ts).
 */

let config: SecurityConfig | Error | undefined;

function securityConfig(): SecurityConfig | Error {
  if (config === undefined) {
    try {
      config = loadSecurityConfig();
      for (const w of config.warnings) console.warn(`meshdx: ${w}`);
    } catch (e) {
      config = e instanceof Error ? e : new Error(String(e));
      console.error(`meshdx: ${config.message}`);
    }
  }
  return config;
}

let auth: AuthSettings | Error | undefined;

function authSettings(): AuthSettings | Error {
  if (auth === undefined) {
    try {
      auth = loadEnv();
    } catch (e) {
      auth = e instanceof Error ? e : new Error(String(e));
      console.error(`meshdx: ${auth.message}`);
    }
  }
  return auth;
}

export function proxy(request: NextRequest): NextResponse {
  const nonce = newNonce();
  const csp = buildCsp({ nonce, dev: process.env.NODE_ENV === 'development' });
  const { pathname } = request.nextUrl;
  const cfg = securityConfig();
  const authCfg = authSettings();
  let refusal: Refusal | null =
    cfg instanceof Error
      ? configRefusal(cfg.message)
      : authCfg instanceof Error
        ? configRefusal(authCfg.message)
        : checkRequest(
            {
              method: request.method,
              pathname,
              host: request.headers.get('host'),
              origin: request.headers.get('origin'),
              secFetchSite: request.headers.get('sec-fetch-site'),
            },
            cfg.allowlist,
          );
  // an /api path no route serves, with a trailing slash or a dot segment: a JSON error, never
  // Next's HTML 404 or its redirect (next.config.ts: skipTrailingSlashRedirect)
  if (!refusal && isApiPath(pathname)) refusal = apiPathProblem(pathname);
  // a page with a trailing slash: redirected here, after the Host check, with the headers below
  const slashRedirect =
    !refusal && pathname.length > 1 && pathname.endsWith('/') ? pathname.replace(/\/+$/, '') : null;
  // per-user identity (MESHDX_AUTH): no identity at all is the login page or a 401
  const gate =
    refusal || slashRedirect !== null || authCfg instanceof Error
      ? null
      : authGate(authCfg, { pathname, search: request.nextUrl.search, headers: request.headers });
  if (gate && 'refusal' in gate) refusal = gate.refusal;

  let response: NextResponse;
  if (slashRedirect !== null) {
    const to = new URL(request.url);
    to.pathname = slashRedirect || '/';
    response = NextResponse.redirect(to, 308);
    response.headers.set('Cache-Control', 'no-store');
  } else if (gate && 'redirect' in gate) {
    response = NextResponse.redirect(new URL(gate.redirect, request.url), 303);
    response.headers.set('Cache-Control', 'no-store');
  } else if (refusal) {
    const { contentType, body } = refusalBody(refusal, pathname);
    response = new NextResponse(request.method === 'HEAD' ? null : body, {
      status: refusal.status,
      headers: { 'Content-Type': contentType, 'Cache-Control': 'no-store', ...refusal.headers },
    });
  } else if (request.method.toUpperCase() === 'OPTIONS') {
    response = new NextResponse(null, {
      status: 204,
      headers: { Allow: allowedMethods(pathname).join(', '), 'Cache-Control': 'no-store' },
    });
  } else {
    // Next.js reads the nonce from the request's CSP header and puts it on its script tags
    const requestHeaders = new Headers(request.headers);
    requestHeaders.set('x-nonce', nonce);
    requestHeaders.set('Content-Security-Policy', csp);
    response = NextResponse.next({ request: { headers: requestHeaders } });
  }
  for (const [name, value] of securityHeaders(csp)) response.headers.set(name, value);
  return response;
}
