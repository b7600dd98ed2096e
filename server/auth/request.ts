/**
 * The edge's one door: a request's scope (its validated `?context=` and the identity it acts as,
 * by MESHDX_AUTH) resolved from its headers and search params, for API routes (requestScope)
 * and pages (page.ts) alike. The settings and the session-sealing key are kept in the
 * process-wide holder (server/runtime/process-state.ts), as the registry is.
 */
import { contextFrom } from '../../lib/api/context';
import { loadEnv } from '../env';
import { getSlot, setSlot } from '../runtime/process-state';
import { resolveIdentity, type AuthSettings, type Identity, type RequestScope } from './identity';
import { SessionRevocations, revocationsFileFor } from './revocations';
import { sealingKey } from './seal';

interface AuthState {
  settings: AuthSettings & { MESHDX_SESSION_SECRET?: string };
  key: Buffer;
  revocations: SessionRevocations;
}

declare module '../runtime/process-state' {
  interface ProcessSlots {
    auth: AuthState;
  }
}

function state(): AuthState {
  let st = getSlot('auth');
  if (!st) {
    const env = loadEnv();
    st = {
      settings: env,
      key: sealingKey(env.MESHDX_SESSION_SECRET),
      revocations: new SessionRevocations(revocationsFileFor(env.MESHDX_DB)),
    };
    setSlot('auth', st);
  }
  return st;
}

export function authSettings(): AuthSettings {
  return state().settings;
}

/** The key session cookies are sealed with (this process's, or from MESHDX_SESSION_SECRET). */
export function sessionKey(): Buffer {
  return state().key;
}

/** The identity of a request's headers (throws the 401 that says what is missing). */
export function identityOf(headers: Pick<Headers, 'get'>): Identity {
  const s = state();
  return resolveIdentity(headers, s.settings, s.key, Date.now(), (sealed) =>
    s.revocations.has(sealed),
  );
}

/** The signed-out sessions (sign-out adds to them; kept beside the history store). */
export function sessionRevocations(): SessionRevocations {
  return state().revocations;
}

/**
 * The scope of a request from its headers and search params: who it acts as (a 401 naming the
 * auth mode and what is missing when nobody), then which context (a 400 naming a value that
 * cannot be a context name).
 */
export function scopeOf(
  headers: Pick<Headers, 'get'>,
  params: URLSearchParams | Record<string, string | string[] | undefined>,
): RequestScope {
  const identity = identityOf(headers);
  return { context: contextFrom(params), identity };
}

/** The scope of an API request (see scopeOf). */
export function requestScope(req: Request): RequestScope {
  return scopeOf(req.headers, new URL(req.url).searchParams);
}

/** Forgets the settings and key (tests that change the environment). */
export function resetAuthState(): void {
  setSlot('auth', undefined);
}
