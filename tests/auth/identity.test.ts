import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GET as inventoryGet } from '../../app/api/inventory/route';
import { GET as healthGet } from '../../app/api/health/route';
import { GET as timelinesGet } from '../../app/api/timelines/route';
import { GET as configDumpGet } from '../../app/api/proxies/[namespace]/[name]/config_dump/route';
import { GET as sessionGet, POST as sessionPost } from '../../app/api/session/route';
import { POST as logoutPost } from '../../app/api/session/logout/route';
import { resetAuthState, sessionKey } from '../../server/auth/request';
import { sealSession, SESSION_COOKIE } from '../../server/auth/session';
import {
  baseRuntimeFor,
  resetRegistry,
  runningRuntimes,
  runningUserRuntimes,
} from '../../server/runtime/registry';
import { requireKubectl } from '../sim/kubectl-harness';
import { startAuthCluster, USERS, type AuthCluster } from './harness';
import { podPath } from '../../lib/refs/pod-ref';

requireKubectl('the per-user identity tests (they apply deploy/ RBAC rendered by kubectl)');

/**
 * meshdx's per-user identity end to end through its route handlers, the real client-node and a
 * simulated API server that checks tokens, impersonation and RBAC like kube-apiserver.
 */
const saved = { ...process.env };
let c: AuthCluster;

function configure(env: Record<string, string>): void {
  process.env = { ...saved, MESHDX_DB: ':memory:', ...env };
  delete process.env.MESHDX_CONTEXT;
  resetRegistry();
  resetAuthState();
}

const URL_BASE = 'http://127.0.0.1:3000';
const req = (path: string, init: RequestInit = {}) => new Request(URL_BASE + path, init);

function cookieOf(res: Response): string {
  const set = res.headers.get('set-cookie') ?? '';
  const value = /^meshdx_session=([^;]*)/.exec(set)?.[1];
  if (!value) throw new Error(`no session cookie in ${JSON.stringify(set)}`);
  return `${SESSION_COOKIE}=${value}`;
}

async function signIn(token: string): Promise<Response> {
  return sessionPost(
    req('/api/session', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token }),
    }),
  );
}

type ErrorBody = { error: { code: string; message: string; hint?: string } };

describe('per-user identity against a token-checking API server', () => {
  beforeAll(async () => {
    c = await startAuthCluster();
  }, 60_000);
  afterEach(() => {
    resetRegistry();
    resetAuthState();
    process.env = { ...saved };
  });
  afterAll(async () => c?.close());

  describe('token mode', () => {
    const setup = () =>
      configure({ MESHDX_AUTH: 'token', MESHDX_KUBECONFIG: c.kubeconfigFor(USERS.meshdx.token) });

    it('a valid token signs in (sealed HttpOnly Strict cookie), sees the views, and the API server sees its token', async () => {
      setup();
      const res = await signIn(USERS.alice.token);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({
        user: 'alice',
        groups: ['meshdx-viewers', 'system:authenticated'],
      });
      const set = res.headers.get('set-cookie') ?? '';
      expect(set).toMatch(/; Path=\/; HttpOnly; SameSite=Strict; Max-Age=28800$/);
      expect(set).not.toContain('Secure');
      expect(set).not.toContain(USERS.alice.token);
      const cookie = cookieOf(res);

      const inv = await inventoryGet(req('/api/inventory', { headers: { cookie } }));
      const text = await inv.text();
      expect(inv.status, text).toBe(200);
      expect(text).not.toContain(USERS.alice.token);
      const body = JSON.parse(text) as { namespaces: unknown[] };
      expect(body.namespaces.length).toBeGreaterThan(3);
      // the pod list and watch of this view were made with alice's token
      const seen = (await c.info()).auth.users.alice ?? {};
      expect(seen['list pods']).toBeGreaterThanOrEqual(1);
      // and meshdx's own ServiceAccount kept its watch for the history
      expect((await c.info()).auth.users[USERS.meshdx.name]?.['watch pods']).toBeGreaterThanOrEqual(
        1,
      );

      const who = await sessionGet(req('/api/session', { headers: { cookie } }));
      expect(await who.json()).toEqual({
        mode: 'token',
        user: 'alice',
        groups: ['meshdx-viewers', 'system:authenticated'],
        signedIn: true,
        problem: null,
      });
      // one writer of the history: the user's runtime reads the base runtime's store
      const users = runningUserRuntimes();
      expect(users).toHaveLength(1);
      expect(runningRuntimes()).toHaveLength(1);
      const base = baseRuntimeFor(null);
      expect(users[0]?.store).not.toBe(base.store); // a read handle, gated by the user's own list
      expect(users[0]?.store.stats()).toEqual(base.store.stats());
      expect(users[0]?.recorder).toBe(baseRuntimeFor(null).recorder);

      const out = await logoutPost(
        req('/api/session/logout', { method: 'POST', headers: { cookie } }),
      );
      expect(out.headers.get('set-cookie')).toContain('Max-Age=0');
      expect(runningUserRuntimes()).toHaveLength(0);
      // the context's own runtime keeps recording
      expect(runningRuntimes()[0]?.isStopped).toBe(false);
    });

    it("a proxy's config_dump goes through a port-forward opened with the user's token", async () => {
      setup();
      const meshed = c.sim.store
        .list<{
          metadata: { name: string; namespace: string };
          spec?: { containers?: { name: string }[] };
          status?: { phase?: string };
        }>('pods')
        .find(
          (p) =>
            p.metadata.namespace === 'shop' &&
            p.status?.phase === 'Running' &&
            (p.spec?.containers ?? []).some((x) => x.name === 'istio-proxy'),
        );
      if (!meshed) throw new Error('no running meshed pod in shop');
      const { namespace, name } = meshed.metadata;
      const dump = (cookie: string) =>
        configDumpGet(
          req(`/api/proxies/${podPath({ namespace, name })}/config_dump`, { headers: { cookie } }),
          {
            params: Promise.resolve({ namespace, name }),
          },
        );
      const alice = await dump(cookieOf(await signIn(USERS.alice.token)));
      expect(alice.status, await alice.clone().text()).toBe(200);
      expect(
        (await c.info()).auth.users.alice?.['portforward pods/portforward'],
      ).toBeGreaterThanOrEqual(1);

      const nina = await dump(cookieOf(await signIn(USERS.nina.token)));
      const body = (await nina.json()) as ErrorBody;
      expect(nina.status, JSON.stringify(body)).toBe(403);
      expect(body.error.hint).toContain('nina lacks:');
    });

    it('a token the API server refuses is a 401 explained, with no cookie; the form goes back to /login with the reason only', async () => {
      setup();
      const res = await signIn('revoked-or-unknown-token');
      expect(res.status).toBe(401);
      expect(res.headers.get('set-cookie')).toBeNull();
      const body = (await res.json()) as ErrorBody;
      expect(body.error.code).toBe('TOKEN_REFUSED');
      expect(body.error.message).toContain('401 Unauthorized');
      expect(JSON.stringify(body)).not.toContain('revoked-or-unknown-token');

      const form = await sessionPost(
        req('/api/session', {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: 'token=revoked-or-unknown-token',
        }),
      );
      expect(form.status).toBe(303);
      expect(form.headers.get('location')).toBe('/login?reason=TOKEN_REFUSED');
    });

    it('a namespace-only user gets the 403 with the missing permission, never an empty view', async () => {
      setup();
      const cookie = cookieOf(await signIn(USERS.nina.token));
      const res = await inventoryGet(req('/api/inventory', { headers: { cookie } }));
      expect(res.status).toBe(403);
      const body = (await res.json()) as ErrorBody;
      expect(body.error.code).toBe('FORBIDDEN');
      // the view's first cluster-wide list (namespaces or pods), refused by RBAC in its own words
      const m =
        /(\w+) is forbidden: User "nina" cannot list resource "(\w+)" in API group "" at the cluster scope/.exec(
          body.error.message,
        );
      expect(m, body.error.message).not.toBeNull();
      const resource = m?.[2] ?? '';
      expect(body.error.hint).toContain(
        `nina lacks: list ${resource} (API group core) at the cluster scope`,
      );
      expect(body.error.hint).toContain(`kubectl auth can-i list ${resource} --all-namespaces`);

      // nor the history meshdx recorded with its own identity: Timelines is a 403 too
      const tl = await timelinesGet(req('/api/timelines', { headers: { cookie } }));
      expect(tl.status).toBe(403);
      expect(((await tl.json()) as ErrorBody).error.message).toContain('User "nina" cannot list');
      const user = runningUserRuntimes()[0];
      if (!user) throw new Error('no user runtime');
      await expect(user.pods.whenListed()).rejects.toMatchObject({ status: 403 });
      expect(() => user.store.stats()).toThrow(
        /pod history is shown to a user whose own credentials can list pods cluster-wide; the API server said: .*User "nina" cannot list resource "pods"/,
      );
    });

    it('no cookie, a forged cookie and an expired one are 401s that name the problem', async () => {
      setup();
      const good = cookieOf(await signIn(USERS.alice.token));
      const code = async (cookie: string | null) => {
        const res = await inventoryGet(
          req('/api/inventory', { headers: cookie ? { cookie } : {} }),
        );
        expect(res.status).toBe(401);
        return ((await res.json()) as ErrorBody).error.code;
      };
      expect(await code(null)).toBe('NO_SESSION');
      // flip one character of the sealed value: GCM's tag no longer matches
      const v = good.slice(good.indexOf('=') + 1);
      const i = v.length - 5;
      const flipped = v.slice(0, i) + (v[i] === 'A' ? 'B' : 'A') + v.slice(i + 1);
      expect(await code(`${SESSION_COOKIE}=${flipped}`)).toBe('SESSION_INVALID');
      expect(await code(`${SESSION_COOKIE}=not-a-session`)).toBe('SESSION_INVALID');
      const expired = sealSession(
        {
          v: 1,
          token: USERS.alice.token,
          user: 'alice',
          groups: [],
          context: 'meshdx-sim-demo',
          exp: Date.now() - 1000,
        },
        sessionKey(),
      );
      expect(await code(`${SESSION_COOKIE}=${expired}`)).toBe('SESSION_EXPIRED');
    });

    it("a session signed in on another context is a 401 naming both contexts, never that context's token used here", async () => {
      setup();
      const before = (await c.info()).auth.users.alice ?? {};
      const elsewhere = sealSession(
        {
          v: 1,
          token: USERS.alice.token,
          user: 'alice',
          groups: ['meshdx-viewers', 'system:authenticated'],
          context: 'prod-eu',
          exp: Date.now() + 60_000,
        },
        sessionKey(),
      );
      const res = await inventoryGet(
        req('/api/inventory', { headers: { cookie: `${SESSION_COOKIE}=${elsewhere}` } }),
      );
      expect(res.status).toBe(401);
      const body = (await res.json()) as ErrorBody;
      expect(body.error.code).toBe('SESSION_OTHER_CONTEXT');
      expect(body.error.message).toBe(
        `you signed in with a token for context "prod-eu", not ${JSON.stringify(baseRuntimeFor(null).context)}`,
      );
      expect(body.error.hint).toMatch(
        /sign out, then sign in at \/login with a token of that context/,
      );
      // the token was not tried against this cluster, and no runtime was started for it
      expect((await c.info()).auth.users.alice ?? {}).toEqual(before);
      expect(runningUserRuntimes()).toHaveLength(0);
    });

    it('bad sign-in input is named; a sign-in where there is no token login says so', async () => {
      setup();
      const empty = await signIn('   ');
      expect(empty.status).toBe(400);
      expect(((await empty.json()) as ErrorBody).error).toMatchObject({ code: 'BAD_LOGIN' });
      const twoLines = await signIn('abc\ndef');
      expect(((await twoLines.json()) as ErrorBody).error.message).toContain('not a bearer token');
      const plain = await sessionPost(
        req('/api/session', {
          method: 'POST',
          headers: { 'Content-Type': 'text/plain' },
          body: 'x',
        }),
      );
      expect(plain.status).toBe(400);
      configure({ MESHDX_AUTH: 'header', MESHDX_KUBECONFIG: c.kubeconfigFor(USERS.meshdx.token) });
      const none = await signIn(USERS.alice.token);
      expect(none.status).toBe(409);
      expect(((await none.json()) as ErrorBody).error.code).toBe('NO_LOGIN');
    });

    it('a user runtime unused for MESHDX_CONTEXT_IDLE_MINUTES is stopped, the base one kept', async () => {
      setup();
      const { UserRuntimes } = await import('../../server/runtime/users');
      const { loadEnv } = await import('../../server/env');
      const users = new UserRuntimes();
      const base = baseRuntimeFor(null);
      const id = {
        mode: 'token' as const,
        user: 'alice',
        groups: [],
        token: USERS.alice.token,
        context: base.context,
      };
      const rt = users.get(base, id, loadEnv());
      expect(users.get(base, id, loadEnv())).toBe(rt);
      users.sweep(60_000, rt.lastUsed + 30_000);
      expect(users.list()).toEqual([rt]);
      users.sweep(60_000, rt.lastUsed + 60_001);
      expect(users.list()).toEqual([]);
      expect(rt.isStopped).toBe(true);
      expect(base.isStopped).toBe(false);
      expect(base.store.stats()).toBeDefined();
    });

    it('health answers the kubelet without a session, as meshdx itself', async () => {
      setup();
      const res = await healthGet(req('/api/health'));
      expect(res.status).toBe(200);
      expect(runningUserRuntimes()).toHaveLength(0);
    });
  });

  describe('header mode', () => {
    const setup = () =>
      configure({
        MESHDX_AUTH: 'header',
        MESHDX_KUBECONFIG: c.kubeconfigFor(USERS.meshdx.token),
      });

    it("impersonates the header's user and groups; the API server applies their RBAC", async () => {
      setup();
      const headers = {
        'X-Forwarded-User': 'bob@example.com',
        'X-Forwarded-Groups': 'meshdx-viewers, oncall',
      };
      const res = await inventoryGet(req('/api/inventory', { headers }));
      expect(res.status, await res.clone().text()).toBe(200);
      const info = await c.info();
      expect(info.auth.impersonated['bob@example.com']).toEqual({
        by: [USERS.meshdx.name],
        groups: ['meshdx-viewers', 'oncall', 'system:authenticated'],
      });
      expect(info.auth.users['bob@example.com']?.['list pods']).toBeGreaterThanOrEqual(1);
      const who = await sessionGet(req('/api/session', { headers }));
      expect(await who.json()).toMatchObject({
        mode: 'header',
        user: 'bob@example.com',
        signedIn: true,
      });

      const carol = await inventoryGet(
        req('/api/inventory', { headers: { 'X-Forwarded-User': 'carol' } }),
      );
      expect(carol.status).toBe(403);
      expect(((await carol.json()) as ErrorBody).error.hint).toMatch(/^carol lacks: list \w+ /);
    });

    it('no header is a 401 that says meshdx expects an authenticating proxy', async () => {
      setup();
      const res = await inventoryGet(req('/api/inventory'));
      expect(res.status).toBe(401);
      const body = (await res.json()) as ErrorBody;
      expect(body.error.code).toBe('NO_PROXY_IDENTITY');
      expect(body.error.message).toContain('X-Forwarded-User');
      expect(body.error.message).toContain('authenticating proxy');
    });
  });
});
