import { z } from 'zod';

/** GET /api/session: the auth mode (MESHDX_AUTH) and who the request acts as. */
export const SessionInfoSchema = z.object({
  mode: z.enum(['none', 'token', 'header']),
  user: z.string().nullable(),
  groups: z.array(z.string()),
  signedIn: z.boolean(),
  problem: z
    .object({ code: z.string(), message: z.string(), hint: z.string().optional() })
    .nullable(),
});
export type SessionInfoView = z.infer<typeof SessionInfoSchema>;

/** What the login page says for each reason it can be sent there with (`/login?reason=`). */
export const LOGIN_REASONS: Readonly<Record<string, string>> = {
  NO_SESSION: 'Sign in to see the cluster as your own Kubernetes user.',
  SESSION_EXPIRED: 'Your session has expired: sign in again.',
  SESSION_REVOKED: 'That session was signed out: sign in again.',
  SESSION_INVALID:
    'Your session cookie is not valid here (meshdx restarted without MESHDX_SESSION_SECRET, or the cookie was altered): sign in again.',
  SESSION_OTHER_CONTEXT:
    'Your token belongs to another cluster context: sign in with a token for this one.',
  TOKEN_REFUSED:
    'The API server refused that token (401 Unauthorized): it is unknown, expired or revoked. Paste a current one.',
  REVIEW_FAILED:
    'meshdx could not ask the API server who that token is (SelfSubjectReview failed); try again, or check that the cluster is reachable.',
  BAD_LOGIN: 'That was not a bearer token: paste the token itself, one line.',
  SIGNED_OUT: 'You are signed out.',
  NO_LOGIN: 'This meshdx has no token sign-in (MESHDX_AUTH is not token).',
  NO_PROXY_IDENTITY:
    'meshdx expects an authenticating proxy in front of it to name you; this request came without it.',
};

/** The header's "who you are" line. */
export function describeSession(s: SessionInfoView): string {
  if (s.mode === 'none') return 'no login (port-forward install)';
  if (!s.signedIn || s.user === null) return 'not signed in';
  const groups = s.groups.filter((g) => g !== 'system:authenticated');
  const via = s.mode === 'token' ? 'token' : 'impersonated via proxy';
  return `signed in as ${s.user}${groups.length ? ` (${groups.join(', ')})` : ''} · ${via}`;
}
