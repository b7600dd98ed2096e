import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { resetAuthState } from '../../server/auth/request';
import type { RequestScope } from '../../server/auth/identity';
import { resetRegistry } from '../../server/runtime/registry';
import { getPodDetail } from '../../server/screens/overview/pod';
import { restoreMeshdx, startAuthCluster, USERS, type AuthCluster } from './harness';
import { forwardRequest } from '../../test-support/api-forward';

/**
 * The pod page as the first page a user opens: meshdx's history is shown to a user once the
 * user's own pod list has come in (server/runtime/history-gate.ts), and that list can come in
 * after the pod itself (a busy API server, a big cluster). The page waits for it, as every view
 * waits for its pods, instead of answering "your pod list has not completed yet". An API server
 * in front of the simulator holds the cluster-wide pod list until well after the pod's GET.
 */
const saved = { ...process.env };
let c: AuthCluster;
let proxy: http.Server;
let heldLists = 0;
let podAnswered: () => void = () => undefined;
const podAnsweredOnce = new Promise<void>((resolve) => (podAnswered = resolve));

beforeAll(async () => {
  c = await startAuthCluster();
  const sim = new URL(c.sim.url);
  proxy = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const forward = () =>
      forwardRequest(req, res, sim, () => {
        if (/^\/api\/v1\/namespaces\/shop\/pods\/[^/]+$/.test(url.pathname)) podAnswered();
      });
    // the first list of pods cluster-wide: answered 500 ms after the page's pod was
    if (url.pathname === '/api/v1/pods' && url.searchParams.get('watch') !== 'true') {
      heldLists += 1;
      void podAnsweredOnce.then(() => setTimeout(forward, 500));
      return;
    }
    forward();
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const kubeconfig = path.join(c.dir, 'kubeconfig-through-proxy');
  const at = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  fs.writeFileSync(
    kubeconfig,
    fs.readFileSync(c.kubeconfigFor(USERS.meshdx.token), 'utf8').split(c.sim.url).join(at),
    { mode: 0o600 },
  );
  process.env = {
    ...saved,
    MESHDX_DB: ':memory:',
    MESHDX_AUTH: 'header',
    MESHDX_KUBECONFIG: kubeconfig,
  };
  delete process.env.MESHDX_CONTEXT;
  resetRegistry();
  resetAuthState();
}, 60_000);
afterAll(async () => {
  resetRegistry();
  proxy?.closeAllConnections();
  await new Promise((resolve) => proxy?.close(resolve));
  await restoreMeshdx(saved, c);
});

it("a user's first page is a pod: it waits for the user's pod list, then shows the pod and its history", async () => {
  const pod = c.sim.store
    .list<{ metadata: { name: string; namespace: string }; status?: { phase?: string } }>('pods')
    .find((p) => p.metadata.namespace === 'shop' && p.status?.phase === 'Running');
  if (!pod) throw new Error('no running pod in shop');
  const bob: RequestScope = {
    context: null,
    identity: { mode: 'header', user: 'bob@example.com', groups: ['meshdx-viewers'] },
  };
  const detail = await getPodDetail(bob, 'shop', pod.metadata.name);
  expect(heldLists).toBeGreaterThanOrEqual(1);
  expect(detail).toMatchObject({
    gone: false,
    pod: { name: pod.metadata.name, namespace: 'shop' },
  });
  expect(detail.ips.length).toBeGreaterThanOrEqual(1);
  const info = await c.info();
  expect(info.auth.users['bob@example.com']?.['list pods']).toBeGreaterThanOrEqual(1);
}, 60_000);
