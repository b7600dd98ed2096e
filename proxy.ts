import { NextResponse, type NextRequest } from 'next/server';
import { loadSecurityConfig, type SecurityConfig } from '@/server/security/config';
import {
  allowedMethods,
  checkRequest,
  configRefusal,
  refusalBody,
  type Refusal,
} from '@/server/security/guard';
import { buildCsp, newNonce, securityHeaders } from '@/server/security/headers';

/**
 * Runs before every request (pages, API, static assets; no matcher on purpose): refuses host
 * names meshdx does not answer to (DNS rebinding against a port-forwarded dashboard) and
 * cross-site POSTs, and puts the security headers, with a fresh CSP nonce, on every response.
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

export function proxy(request: NextRequest): NextResponse {
  const nonce = newNonce();
  const csp = buildCsp({ nonce, dev: process.env.NODE_ENV === 'development' });
  const { pathname } = request.nextUrl;
  const cfg = securityConfig();
  const refusal: Refusal | null =
    cfg instanceof Error
      ? configRefusal(cfg.message)
      : checkRequest(
          {
            method: request.method,
            pathname,
            host: request.headers.get('host'),
            origin: request.headers.get('origin'),
          },
          cfg.allowlist,
        );

  let response: NextResponse;
  if (refusal) {
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
