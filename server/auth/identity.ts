/**
 * Who a request acts as, by the auth mode (MESHDX_AUTH): meshdx itself (`none`), the user of a
 * token session (`token`), or the user an authenticating proxy names in a header, impersonated
 * (`header`). Resolved from the request's headers alone, synchronously.
 */
import { createHash } from 'node:crypto';
import type { MeshdxEnv } from '../env';
import { authError } from './errors';
import { cookieValue, openSession, SESSION_COOKIE } from './session';

export type AuthMode = MeshdxEnv['MESHDX_AUTH'];

export type Identity =
  | { mode: 'none' }
  | { mode: 'token'; user: string; groups: string[]; token: string; context: string }
  | { mode: 'header'; user: string; groups: string[] };

/** What the page may show of an identity (never the token). */
export interface IdentityView {
  mode: AuthMode;
  user: string | null;
  groups: string[];
}

export function identityView(id: Identity): IdentityView {
  return id.mode === 'none'
    ? { mode: 'none', user: null, groups: [] }
    : { mode: id.mode, user: id.user, groups: id.groups };
}

/**
 * A key that tells identities apart in the registry without holding the token: a hash of the
 * token, or the impersonated user and groups.
 */
export function identityKey(id: Identity): string {
  switch (id.mode) {
    case 'none':
      return '';
    case 'token':
      return `token:${createHash('sha256').update(id.token).digest('hex').slice(0, 32)}`;
    case 'header':
      return `header:${JSON.stringify([id.user, [...id.groups].sort()])}`;
  }
}

export type AuthSettings = Pick<
  MeshdxEnv,
  'MESHDX_AUTH' | 'MESHDX_AUTH_USER_HEADER' | 'MESHDX_AUTH_GROUPS_HEADER'
>;

// printable, no control characters; what a Kubernetes user or group name can reasonably be
const NAME = /^[\x20-\x7e\u00a0-\uffff]{1,256}$/;

/** Groups from a comma-separated header: trimmed, empty entries dropped, duplicates once. */
export function parseGroups(value: string | null): string[] {
  if (value === null) return [];
  return [
    ...new Set(
      value
        .split(',')
        .map((g) => g.trim())
        .filter((g) => g !== ''),
    ),
  ];
}

/**
 * The identity of a request. Throws a 401 RequestError (errors.ts) naming the mode and the
 * problem when the mode wants a user and the request has none.
 */
export function resolveIdentity(
  headers: Pick<Headers, 'get'>,
  settings: AuthSettings,
  key: Buffer,
  now: number = Date.now(),
): Identity {
  switch (settings.MESHDX_AUTH) {
    case 'none':
      return { mode: 'none' };
    case 'token': {
      const read = openSession(cookieValue(headers.get('cookie'), SESSION_COOKIE), key, now);
      if (read.ok) {
        const s = read.session;
        return {
          mode: 'token',
          user: s.user,
          groups: s.groups,
          token: s.token,
          context: s.context,
        };
      }
      if (read.why === 'absent')
        throw authError('NO_SESSION', 'meshdx runs with MESHDX_AUTH=token: sign in first');
      if (read.why === 'expired')
        throw authError('SESSION_EXPIRED', 'your meshdx session has expired');
      throw authError(
        'SESSION_INVALID',
        'the session cookie is not one this meshdx issued (altered, or sealed before a restart without MESHDX_SESSION_SECRET)',
      );
    }
    case 'header': {
      const h = settings.MESHDX_AUTH_USER_HEADER;
      const user = headers.get(h)?.trim() ?? '';
      if (user === '')
        throw authError(
          'NO_PROXY_IDENTITY',
          `meshdx runs with MESHDX_AUTH=header and expects an authenticating proxy in front of it to set ${h}; this request has none`,
        );
      if (!NAME.test(user))
        throw authError('BAD_PROXY_IDENTITY', `the ${h} header is not a user name`);
      const groups = parseGroups(headers.get(settings.MESHDX_AUTH_GROUPS_HEADER));
      const bad = groups.find((g) => !NAME.test(g));
      if (bad !== undefined)
        throw authError(
          'BAD_PROXY_IDENTITY',
          `the ${settings.MESHDX_AUTH_GROUPS_HEADER} header holds a group that is not a name`,
        );
      return { mode: 'header', user, groups };
    }
  }
}
