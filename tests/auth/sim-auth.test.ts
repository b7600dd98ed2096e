import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireKubectl } from '../sim/kubectl-harness';
import { NINA_NAMESPACE, startAuthCluster, USERS, type AuthCluster } from './harness';

requireKubectl('the token-checking simulator tests (they apply deploy/ RBAC rendered by kubectl)');

/**
 * The simulator checks bearer tokens and RBAC the way kube-apiserver does, so meshdx's per-user
 * identity is tested against what a real API server would answer.
 */
describe('the simulator authenticates and authorizes like kube-apiserver', () => {
  let c: AuthCluster;
  beforeAll(async () => {
    c = await startAuthCluster();
  }, 60_000);
  afterAll(async () => c?.close());

  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(c.sim.url + path, { headers });

  it('no token and an unknown token are 401 Unauthorized Statuses', async () => {
    const cases: Record<string, string>[] = [{}, { Authorization: 'Bearer not-a-known-token' }];
    for (const headers of cases) {
      const res = await get('/api/v1/pods', headers);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
    }
  });

  it("the real client with a viewer's token lists pods cluster-wide; a namespace-only user gets RBAC's words", async () => {
    const api = (token: string) => {
      const kc = new KubeConfig();
      kc.loadFromFile(c.kubeconfigFor(token));
      return kc.makeApiClient(CoreV1Api);
    };
    const all = await api(USERS.alice.token).listPodForAllNamespaces();
    expect(all.items.length).toBeGreaterThan(10);

    await expect(api(USERS.nina.token).listPodForAllNamespaces()).rejects.toMatchObject({
      code: 403,
    });
    const res = await get('/api/v1/pods', { Authorization: `Bearer ${USERS.nina.token}` });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({
      reason: 'Forbidden',
      message:
        'pods is forbidden: User "nina" cannot list resource "pods" in API group "" at the cluster scope',
    });
    const own = await api(USERS.nina.token).listNamespacedPod({ namespace: NINA_NAMESPACE });
    expect(own.items).toEqual([]);
    const log = await get('/api/v1/namespaces/istio-system/pods/x/log', {
      Authorization: `Bearer ${USERS.nina.token}`,
    });
    expect(((await log.json()) as { message: string }).message).toBe(
      'pods "x" is forbidden: User "nina" cannot get resource "pods/log" in API group "" in the namespace "istio-system"',
    );
  });

  it("answers SelfSubjectReview with the token's user and groups", async () => {
    const res = await fetch(`${c.sim.url}/apis/authentication.k8s.io/v1/selfsubjectreviews`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${USERS.alice.token}`, 'Content-Type': 'application/json' },
      body: '{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}',
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({
      status: {
        userInfo: { username: 'alice', groups: ['meshdx-viewers', 'system:authenticated'] },
      },
    });
  });

  it("impersonation needs `impersonate` (granted to meshdx by header-auth), then the impersonated user's RBAC applies", async () => {
    const as = (token: string, user: string, groups: string[] = []) => {
      const h = new Headers({ Authorization: `Bearer ${token}`, 'Impersonate-User': user });
      for (const g of groups) h.append('Impersonate-Group', g);
      return fetch(`${c.sim.url}/api/v1/pods`, { headers: h });
    };
    const byNina = await as(USERS.nina.token, 'bob');
    expect(byNina.status).toBe(403);
    expect(((await byNina.json()) as { message: string }).message).toBe(
      'users "bob" is forbidden: User "nina" cannot impersonate resource "users" in API group "" at the cluster scope',
    );
    // meshdx's ServiceAccount may impersonate; bob alone has no RBAC, bob in meshdx-viewers does
    const bare = await as(USERS.meshdx.token, 'bob');
    expect(bare.status).toBe(403);
    expect(((await bare.json()) as { message: string }).message).toContain(
      'User "bob" cannot list',
    );
    expect((await as(USERS.meshdx.token, 'bob', ['meshdx-viewers'])).status).toBe(200);
    const info = await c.info();
    expect(info.auth.impersonated.bob?.by).toEqual([USERS.meshdx.name]);
    expect(info.auth.impersonated.bob?.groups).toContain('meshdx-viewers');
    expect(info.auth.users.bob?.['list pods']).toBeGreaterThanOrEqual(2);
  });

  it('counts requests per user, so a test can prove whose credentials reached the API server', async () => {
    const counts = (await c.info()).auth.users;
    expect(counts.alice?.['list pods']).toBeGreaterThanOrEqual(1);
    expect(counts.nina?.['list pods']).toBeGreaterThanOrEqual(2);
    expect(counts.nina?.['log pods/log']).toBe(1);
    // refused tokens are nobody's: they are not counted as a user
    expect(Object.keys(counts)).not.toContain('wrong-token');
  });
});
