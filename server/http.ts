/**
 * Errors by meaning, not by JavaScript class: every failure a route can meet is mapped here to
 * the status that says whose fault it is (the request 4xx, the cluster or an upstream 502/503/504)
 * and a message that names the problem and a hint that says what to do.
 */
import { apiError, type ApiError } from '../lib/api/errors';
import { isRequestError } from '../lib/api/request-error';
import { isInvalidNameError } from '../lib/kube/names';
import { canICommand, describePermission, parseForbidden } from '../lib/auth/forbidden';
import type { Identity, RequestScope } from './auth/identity';
import { errorText, isKubeError } from './kube/errors';
import { isClusterConfigError, isUnknownContextError } from './kube/source';

export interface ErrorResult {
  status: number;
  body: ApiError;
  headers?: Record<string, string>;
}

/**
 * Maps any failure to an HTTP status and an error that says what to do about it. `who` is the
 * identity the request acted as (absent: meshdx itself, or none resolved yet): a refusal by the
 * API server is then that user's, and says what they lack.
 */
export function toErrorResult(e: unknown, who?: Identity): ErrorResult {
  if (isRequestError(e))
    return { status: e.status, body: apiError(e.code, e.message, e.hint), headers: e.headers };
  if (isInvalidNameError(e)) return { status: 400, body: apiError('INVALID_NAME', e.message) };
  if (isUnknownContextError(e)) {
    return {
      status: 404,
      body: apiError(
        'UNKNOWN_CONTEXT',
        e.message,
        `Pick one of: ${e.known.join(', ') || 'none'} (GET /api/contexts lists them).`,
      ),
    };
  }
  if (isClusterConfigError(e)) return { status: 503, body: apiError(e.code, e.message, e.hint) };
  if (e instanceof Error && e.name === 'EnvError')
    return { status: 500, body: apiError('INVALID_CONFIG', e.message) };
  if (isKubeError(e)) {
    switch (e.kind) {
      case 'invalid-name':
        return { status: 400, body: apiError('INVALID_REQUEST', e.message) };
      case 'timeout':
        return {
          status: 504,
          body: apiError(
            'API_TIMEOUT',
            e.message,
            'The API server or the pod answered too slowly; try again or narrow the namespace.',
          ),
        };
      case 'unreachable':
        return {
          status: 502,
          body: apiError(
            'API_UNREACHABLE',
            e.message,
            'Check that the cluster is up and that the kubeconfig server address is reachable from meshdx (VPN, port-forward, proxy).',
          ),
        };
      case 'http': {
        const user = who === undefined || who.mode === 'none' ? null : who;
        if (user !== null && (e.status === 401 || e.status === 403)) return userRefusal(e, user);
        if (e.status === 401)
          return {
            status: 502,
            body: apiError(
              'UNAUTHORIZED',
              e.message,
              'The kubeconfig credentials were refused: refresh them (e.g. log in again).',
            ),
          };
        if (e.status === 403)
          return {
            status: 502,
            body: apiError(
              'FORBIDDEN',
              e.message,
              'meshdx needs read RBAC: apply deploy/base (kubectl apply -k deploy/base) or use a context allowed to list these resources.',
            ),
          };
        if (e.status === 404) return { status: 404, body: apiError('NOT_FOUND', e.message) };
        return { status: 502, body: apiError('API_ERROR', e.message) };
      }
      default:
        // an upstream (API server, proxy admin, istiod) answered something unreadable
        return { status: 502, body: apiError('UPSTREAM_MALFORMED', e.message) };
    }
  }
  return { status: 500, body: apiError('INTERNAL', errorText(e)) };
}

/**
 * A 401/403 the API server gave the signed-in (or impersonated) user: their own credentials or
 * RBAC, not meshdx's, so it is answered with the same status and says what is missing.
 */
function userRefusal(
  e: { status?: number; message: string },
  who: { mode: 'token' | 'header'; user: string },
): ErrorResult {
  if (e.status === 401)
    return {
      status: 401,
      body: apiError(
        'TOKEN_REFUSED',
        `the API server refused the credentials of ${who.user}: ${e.message}`,
        who.mode === 'token'
          ? 'Your token has expired or was revoked: sign in again at /login with a current one.'
          : "meshdx's own credentials were refused while impersonating you: the operator must check its ServiceAccount.",
      ),
    };
  const missing = parseForbidden(e.message);
  const hint = missing
    ? `${who.user} lacks: ${describePermission(missing)}. Ask your cluster admin for a Role or ClusterRole granting it${missing.namespace === null ? ', or pick a namespace you can read' : ''}; check with \`${canICommand(missing)}\`.`
    : `The API server refused this to ${who.user}; ask your cluster admin for read access.`;
  return { status: 403, body: apiError('FORBIDDEN', e.message, hint) };
}

const NO_STORE = { 'Cache-Control': 'no-store' };

/**
 * The JSON error response of any failure (logged with its stack when it is meshdx's own bug),
 * told as `who`'s when the request acted as a user (toErrorResult).
 */
export function errorResponse(e: unknown, who?: Identity): Response {
  const r = toErrorResult(e, who);
  if (r.status >= 500 && r.body.error.code === 'INTERNAL')
    console.error('meshdx: unexpected error', e);
  return Response.json(r.body, { status: r.status, headers: { ...NO_STORE, ...r.headers } });
}

/** Runs a use case and answers JSON; any failure becomes a clear error body, never a crash. */
export async function jsonResponse<T>(run: () => Promise<T> | T): Promise<Response> {
  try {
    const body = await run();
    return Response.json(body, { headers: NO_STORE });
  } catch (e) {
    return errorResponse(e);
  }
}

/**
 * Resolves a request's scope (`resolve`: the edge's door, which throws the 400 or 401 naming
 * the problem) and answers `run(scope)` as JSON; a failure is answered as the error of the
 * user the scope acts as.
 */
export async function scopedJsonResponse<T>(
  resolve: () => RequestScope,
  run: (scope: RequestScope) => Promise<T> | T,
): Promise<Response> {
  let scope: RequestScope | undefined;
  try {
    scope = resolve();
    const body = await run(scope);
    return Response.json(body, { headers: NO_STORE });
  } catch (e) {
    return errorResponse(e, scope?.identity);
  }
}
