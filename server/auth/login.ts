/**
 * Token mode's sign-in and sign-out (POST /api/session, POST /api/session/logout) and what
 * GET /api/session tells the page. Sign-in checks the pasted token with the API server
 * (SelfSubjectReview) before sealing it into the session cookie; a refusal sends the browser
 * back to /login with the reason. The token is never echoed, logged or put in a URL.
 */
import { withContext } from '../../lib/api/context';
import { apiError } from '../../lib/api/errors';
import { isRequestError } from '../../lib/api/request-error';
import { toErrorResult } from '../http';
import { baseRuntimeFor, stopUserRuntimes } from '../runtime/registry';
import { identityView, type IdentityView } from './identity';
import { authSettings, identityOf, sessionKey, sessionRevocations } from './request';
import {
  clearedSessionCookie,
  cookieValue,
  isHttps,
  openSession,
  SESSION_COOKIE,
  sealSession,
  SESSION_MAX_AGE_S,
  sessionCookie,
} from './session';
import { whoAmI } from './whoami';

const MAX_BODY = 32 * 1024;
// a bearer token is one line of printable ASCII (JWTs, static tokens, bootstrap tokens)
const TOKEN = /^[\x21-\x7e]{1,16384}$/;

export interface SessionInfo extends IdentityView {
  signedIn: boolean;
  /** Why there is no identity (a code of lib/auth/problems.ts), when there is none. */
  problem: { code: string; message: string; hint?: string } | null;
}

/** GET /api/session: the auth mode and who the request is, or why nobody. */
export function sessionInfo(req: Request): SessionInfo {
  try {
    const id = identityOf(req.headers);
    return { ...identityView(id), signedIn: id.mode !== 'none', problem: null };
  } catch (e) {
    if (!isRequestError(e)) throw e;
    return {
      mode: authSettings().MESHDX_AUTH,
      user: null,
      groups: [],
      signedIn: false,
      problem: { code: e.code, message: e.message, ...(e.hint ? { hint: e.hint } : {}) },
    };
  }
}

type Form = { token: string; context: string | null; html: boolean };

async function readForm(req: Request): Promise<Form | { error: string; html: boolean }> {
  const type = (req.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  const html = type === 'application/x-www-form-urlencoded';
  if (!html && type !== 'application/json')
    return { error: 'send the token as a form (application/x-www-form-urlencoded) or JSON', html };
  const text = await req.text();
  if (text.length > MAX_BODY) return { error: 'the sign-in request is too large', html };
  let token: unknown;
  let context: unknown;
  if (html) {
    const p = new URLSearchParams(text);
    token = p.get('token');
    context = p.get('context');
  } else {
    try {
      const json = JSON.parse(text) as { token?: unknown; context?: unknown };
      token = json.token;
      context = json.context;
    } catch {
      return { error: 'the body is not JSON', html };
    }
  }
  if (typeof token !== 'string' || token.trim() === '')
    return { error: 'paste a token: the field was empty', html };
  const t = token.trim().replace(/^Bearer\s+/i, '');
  if (!TOKEN.test(t))
    return { error: 'that is not a bearer token (one line of printable characters)', html };
  const ctx = typeof context === 'string' && context !== '' ? context : null;
  return { token: t, context: ctx, html };
}

function refuse(html: boolean, status: number, code: string, message: string, hint?: string) {
  if (html)
    return new Response(null, {
      status: 303,
      headers: {
        Location: `/login?reason=${encodeURIComponent(code)}`,
        'Cache-Control': 'no-store',
      },
    });
  return Response.json(apiError(code, message, hint), {
    status,
    headers: { 'Cache-Control': 'no-store' },
  });
}

/** POST /api/session: checks the token with the API server and starts the session. */
export async function signIn(req: Request): Promise<Response> {
  const mode = authSettings().MESHDX_AUTH;
  const form = await readForm(req);
  if (mode !== 'token')
    return refuse(
      form.html,
      409,
      'NO_LOGIN',
      `meshdx runs with MESHDX_AUTH=${mode}: there is no token sign-in`,
      'Set MESHDX_AUTH=token to let users sign in with their own Kubernetes token.',
    );
  if ('error' in form) return refuse(form.html, 400, 'BAD_LOGIN', form.error);
  let source;
  try {
    source = baseRuntimeFor(form.context).source;
  } catch (e) {
    const r = toErrorResult(e);
    return refuse(form.html, r.status, r.body.error.code, r.body.error.message, r.body.error.hint);
  }
  const who = await whoAmI(source, form.token);
  if (!who.ok)
    return refuse(
      form.html,
      who.code === 'TOKEN_REFUSED' ? 401 : 502,
      who.code,
      who.message,
      who.code === 'TOKEN_REFUSED'
        ? 'Paste a current token: `kubectl create token SERVICEACCOUNT -n NAMESPACE`, or your OIDC id-token.'
        : undefined,
    );
  const exp = Date.now() + SESSION_MAX_AGE_S * 1000;
  const sealed = sealSession(
    { v: 1, token: form.token, user: who.user, groups: who.groups, context: source.context, exp },
    sessionKey(),
  );
  const cookie = sessionCookie(sealed, SESSION_MAX_AGE_S, isHttps(req.url, req.headers));
  const headers = { 'Set-Cookie': cookie, 'Cache-Control': 'no-store' };
  if (form.html)
    return new Response(null, {
      status: 303,
      headers: { ...headers, Location: withContext('/', form.context) },
    });
  return Response.json(
    { mode, user: who.user, groups: who.groups, signedIn: true, context: source.context },
    { headers },
  );
}

/**
 * POST /api/session/logout: ends the session on the server (the cookie is revoked until its own
 * expiry, so a copy replayed later is a 401), stops the user's runtimes and clears the cookie.
 */
export function signOut(req: Request): Response {
  try {
    const id = identityOf(req.headers);
    if (id.mode === 'token') stopUserRuntimes(id);
  } catch {
    // no valid session: clearing the cookie is all there is to do
  }
  const sealed = cookieValue(req.headers.get('cookie'), SESSION_COOKIE);
  const read = openSession(sealed, sessionKey(), Date.now());
  if (read.ok && sealed !== undefined) {
    try {
      sessionRevocations().revoke(sealed, read.session.exp);
    } catch (e) {
      // the session is not over on the server: say so rather than pretend
      return Response.json(
        apiError(
          'SIGN_OUT_FAILED',
          `the session could not be ended on the server: ${e instanceof Error ? e.message : String(e)}`,
          'Check that the MESHDX_DB directory is writable, then sign out again.',
        ),
        { status: 500, headers: { 'Cache-Control': 'no-store' } },
      );
    }
  }
  const html = (req.headers.get('accept') ?? '').includes('text/html');
  const headers = {
    'Set-Cookie': clearedSessionCookie(isHttps(req.url, req.headers)),
    'Cache-Control': 'no-store',
  };
  return html
    ? new Response(null, {
        status: 303,
        headers: { ...headers, Location: '/login?reason=SIGNED_OUT' },
      })
    : Response.json({ signedIn: false }, { headers });
}
