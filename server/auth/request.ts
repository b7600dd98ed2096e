/**
 * The identity of the request being served, carried with it through async calls
 * (AsyncLocalStorage), so that the one helper every route already calls to read `?context=`
 * also decides who the cluster calls are made as, and runtimeFor() picks that user's runtime.
 * Kept in the process-wide holder (server/runtime/process-state.ts), as the registry is.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { loadEnv } from '../env';
import { resolveIdentity, type AuthSettings, type Identity } from './identity';
import { getSlot, setSlot } from '../runtime/process-state';
import { sealingKey } from './seal';

interface AuthState {
  settings: AuthSettings & { MESHDX_SESSION_SECRET?: string };
  key: Buffer;
  current: AsyncLocalStorage<Identity>;
}

function state(): AuthState {
  let st = getSlot<AuthState>('auth');
  if (!st) {
    const env = loadEnv();
    st = {
      settings: env,
      key: sealingKey(env.MESHDX_SESSION_SECRET),
      current: new AsyncLocalStorage<Identity>(),
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
  return resolveIdentity(headers, s.settings, s.key);
}

/**
 * Resolves the request's identity and makes it the current one for the rest of this request's
 * work (its awaits included). Throws the 401 when the request has none.
 */
export function enterRequestIdentity(req: Request): Identity {
  const id = identityOf(req.headers);
  state().current.enterWith(id);
  return id;
}

/** Runs `fn` (and everything it awaits) as `id`. */
export function runAs<T>(id: Identity, fn: () => T): T {
  return state().current.run(id, fn);
}

/** The identity of the request being served, if one was entered. */
export function currentIdentity(): Identity | undefined {
  return state().current.getStore();
}

/** Forgets the settings and key (tests that change the environment). */
export function resetAuthState(): void {
  setSlot('auth', undefined);
}
