import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { GET as inventoryGet } from '../../app/api/inventory/route';
import { GET as sessionGet, POST as sessionPost } from '../../app/api/session/route';
import { POST as logoutPost } from '../../app/api/session/logout/route';
import { resetAuthState } from '../../server/auth/request';
import { REVOCATIONS_FILE } from '../../server/auth/revocations';
import { SESSION_COOKIE, SESSION_MAX_AGE_S } from '../../server/auth/session';
import { resetRegistry } from '../../server/runtime/registry';
import { requireKubectl } from '../sim/kubectl-harness';
import { startAuthCluster, USERS, type AuthCluster } from '../auth/harness';

requireKubectl('the session tests (they apply deploy/ RBAC rendered by kubectl)');

/**
 * Sessions that end: a cookie replayed after sign-out is a 401, also after meshdx restarts (the
 * revocation list lives beside the history store), through the real route handlers and a
 * token-checking simulated API server.
 */
const saved = { ...process.env };
let c: AuthCluster;
let dir: string;

function start(db: string): void {
  process.env = {
    ...saved,
    MESHDX_DB: db,
    MESHDX_AUTH: 'token',
    MESHDX_SESSION_SECRET: 'edges-sessions-secret-0123456789abcdef',
    MESHDX_KUBECONFIG: c.kubeconfigFor(USERS.meshdx.token),
  };
  delete process.env.MESHDX_CONTEXT;
  resetRegistry();
  resetAuthState();
}

const req = (p: string, init: RequestInit = {}) => new Request(`http://127.0.0.1:3000${p}`, init);

async function signIn(): Promise<string> {
  const res = await sessionPost(
    req('/api/session', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: USERS.alice.token }),
    }),
  );
  expect(res.status).toBe(200);
  const value = /^meshdx_session=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  if (!value) throw new Error('sign-in set no session cookie');
  return `${SESSION_COOKIE}=${value}`;
}

const logout = (cookie: string) =>
  logoutPost(req('/api/session/logout', { method: 'POST', headers: { cookie } }));

async function codeOf(res: Response): Promise<string> {
  return ((await res.json()) as { error: { code: string } }).error.code;
}

describe('sessions end on the server', () => {
  beforeAll(async () => {
    c = await startAuthCluster();
  }, 60_000);
  afterEach(() => {
    vi.useRealTimers();
    resetRegistry();
    resetAuthState();
    process.env = { ...saved };
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  afterAll(async () => c?.close());

  it('replaying a signed-out cookie is a 401 naming the sign-out, also after a restart', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-sessions-'));
    start(dir);
    const cookie = await signIn();
    expect((await inventoryGet(req('/api/inventory', { headers: { cookie } }))).status).toBe(200);

    const out = await logout(cookie);
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toContain('Max-Age=0');

    const replay = await inventoryGet(req('/api/inventory', { headers: { cookie } }));
    expect(replay.status).toBe(401);
    expect(await codeOf(replay)).toBe('SESSION_REVOKED');
    const who = (await (await sessionGet(req('/api/session', { headers: { cookie } }))).json()) as {
      signedIn: boolean;
      problem: { code: string } | null;
    };
    expect(who).toMatchObject({ signedIn: false, problem: { code: 'SESSION_REVOKED' } });

    // the list is on disk beside the store, holds a digest and never the cookie itself
    const file = fs.readFileSync(path.join(dir, REVOCATIONS_FILE), 'utf8');
    expect(file).not.toContain(cookie.slice(SESSION_COOKIE.length + 1));

    // a restart (same secret, same MESHDX_DB) does not bring the session back
    start(dir);
    const after = await inventoryGet(req('/api/inventory', { headers: { cookie } }));
    expect(after.status).toBe(401);
    expect(await codeOf(after)).toBe('SESSION_REVOKED');

    // a new sign-in is a new session
    const fresh = await signIn();
    expect(fresh).not.toBe(cookie);
    expect((await inventoryGet(req('/api/inventory', { headers: { cookie: fresh } }))).status).toBe(
      200,
    );
  });

  it('replaying a cookie past its expiry is a 401 naming the expiry, also after a restart', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-sessions-'));
    start(dir);
    const cookie = await signIn();
    expect((await inventoryGet(req('/api/inventory', { headers: { cookie } }))).status).toBe(200);
    // the server's clock passes the session's end; the browser would have dropped the cookie
    // (Max-Age), a replay sends it all the same
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + SESSION_MAX_AGE_S * 1000 + 1000);
    const replay = await inventoryGet(req('/api/inventory', { headers: { cookie } }));
    expect(replay.status).toBe(401);
    expect(await codeOf(replay)).toBe('SESSION_EXPIRED');
    start(dir);
    const after = await inventoryGet(req('/api/inventory', { headers: { cookie } }));
    expect(after.status).toBe(401);
    expect(await codeOf(after)).toBe('SESSION_EXPIRED');
  });

  it('with MESHDX_DB=:memory: the sign-out holds for the run', async () => {
    start(':memory:');
    const cookie = await signIn();
    await logout(cookie);
    const replay = await inventoryGet(req('/api/inventory', { headers: { cookie } }));
    expect(replay.status).toBe(401);
    expect(await codeOf(replay)).toBe('SESSION_REVOKED');
  });
});
