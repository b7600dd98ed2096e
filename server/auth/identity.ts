/**
 * Who a request acts as, by the auth mode (MESHDX_AUTH): meshdx itself (`none`), the user of a
 * token session (`token`), or the user an authenticating proxy names in a header, impersonated
 * (`header`). Resolved from the request's headers alone, synchronously.
 */
import type { MeshdxEnv } from '../env';
import { authError } from '../../lib/auth/problems';
import { cookieValue, openSession, SESSION_COOKIE } from './session';

export type AuthMode = MeshdxEnv['MESHDX_AUTH'];

export type Identity =
  | { mode: 'none' }
  | { mode: 'token'; user: string; groups: string[]; token: string; context: string }
  | { mode: 'header'; user: string; groups: string[] };

/**
 * What one request is about and who it acts as, resolved once at the edge (requestScope for a
 * route, pageScope for a page) and passed down as a value to runtimeFor: nothing reads either
 * from ambient state.
 */
export interface RequestScope {
  /** The kubeconfig context (`?context=`, validated), or null for meshdx's default one. */
  readonly context: string | null;
  readonly identity: Identity;
}

/**
 * meshdx acting as itself on `context`, said explicitly where no user is involved: the health
 * probe (the kubelet has no user), start-up, the command line.
 */
export function asMeshdx(context: string | null): RequestScope {
  return { context, identity: { mode: 'none' } };
}

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
 * problem when the mode wants a user and the request has none, or a session `revoked` says was
 * signed out.
 */
export function resolveIdentity(
  headers: Pick<Headers, 'get'>,
  settings: AuthSettings,
  key: Buffer,
  now: number = Date.now(),
  revoked: (sealed: string) => boolean = () => false,
): Identity {
  switch (settings.MESHDX_AUTH) {
    case 'none':
      return { mode: 'none' };
    case 'token': {
      const sealed = cookieValue(headers.get('cookie'), SESSION_COOKIE);
      const read = openSession(sealed, key, now);
      if (read.ok && sealed !== undefined && revoked(sealed))
        throw authError('SESSION_REVOKED', 'this meshdx session was signed out');
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
