/**
 * Why a request has no identity meshdx can act as: answered 401 with the mode named, so the
 * page can send the user to the login (token mode) or the operator to the proxy (header mode).
 * Never carries the token itself. Pure: the server's identity code and its runtimes both raise
 * these.
 */
import { RequestError } from '../api/request-error';

export type AuthProblem =
  | 'NO_SESSION'
  | 'SESSION_INVALID'
  | 'SESSION_EXPIRED'
  | 'SESSION_REVOKED'
  | 'SESSION_OTHER_CONTEXT'
  | 'NO_PROXY_IDENTITY'
  | 'BAD_PROXY_IDENTITY';

const HINTS: Record<AuthProblem, string> = {
  NO_SESSION: 'Sign in at /login with a Kubernetes bearer token.',
  SESSION_INVALID: 'Sign in again at /login.',
  SESSION_EXPIRED: 'Sign in again at /login.',
  SESSION_REVOKED: 'That session was signed out: sign in again at /login.',
  SESSION_OTHER_CONTEXT:
    'A token belongs to one cluster: sign out, then sign in at /login with a token of that context.',
  NO_PROXY_IDENTITY:
    'Open meshdx through its authenticating proxy (oauth2-proxy or similar), which must set the header; meshdx must not be reachable around it.',
  BAD_PROXY_IDENTITY: 'Check what the authenticating proxy puts in the header.',
};

/** A 401 naming the problem and the auth mode; recognised by toErrorResult as a RequestError. */
export function authError(problem: AuthProblem, message: string): RequestError {
  return new RequestError(401, problem, message, HINTS[problem]);
}

export function isAuthProblem(code: string): code is AuthProblem {
  return code in HINTS;
}
