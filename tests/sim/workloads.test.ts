import { AppsV1Api, KubeConfig, type V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../lib/kube/types';
import { kubectlSim, requireKubectl } from './kubectl-harness';
import { EVENT_WAIT_GUARD_MS } from '../../test-support/deadlines';

requireKubectl('the workload tests of the simulator');

const HOLD = '{"holdApplicationUntilProxyStarts":true}';

async function until<T>(
  what: string,
  fn: () => T | undefined,
  ms = EVENT_WAIT_GUARD_MS,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('workload controllers: Deployments, ReplicaSets and a rollout by patch', () => {
  const h = kubectlSim('sim-workloads', { scenario: 'phantom-503', scenarioImpl: undefined });
  const apps = () => {
    const kc = new KubeConfig();
    kc.loadFromString(h.sim.kubeconfigYaml);
    return kc.makeApiClient(AppsV1Api);
  };
  const checkoutPods = () =>
    h.sim.store.list<Pod>('pods').filter((p) => p.metadata.labels?.app === 'checkout');

  it('lists every workload kind with kubectl, Deployments with READY/UP-TO-DATE/AVAILABLE', async () => {
    const out = await h.kubectl('get', 'deploy,rs,sts,ds,job,cronjob', '-A');
    expect(out).toMatch(/NAMESPACE\s+NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE/);
    expect(out).toMatch(/shop\s+deployment\.apps\/checkout\s+2\/2\s+2\s+2\s+/);
    expect(out).toMatch(/NAMESPACE\s+NAME\s+DESIRED\s+CURRENT\s+READY\s+AGE/);
    expect(out).toMatch(/shop\s+replicaset\.apps\/checkout-[a-z0-9]{10}\s+2\s+2\s+2\s+/);
    const empty = await h.kubectl(
      'get',
      'gateways.networking.istio.io,authorizationpolicies',
      '-A',
    );
    expect(empty).toBe('');
  });

  it('owns pods by ReplicaSets owned by Deployments, with uids and controller: true', async () => {
    const dep = await apps().readNamespacedDeployment({ namespace: 'shop', name: 'checkout' });
    const rss = await apps().listNamespacedReplicaSet({
      namespace: 'shop',
      labelSelector: 'app=checkout',
    });
    expect(rss.items).toHaveLength(1);
    const rs = rss.items[0];
    expect(rs?.metadata?.ownerReferences).toEqual([
      expect.objectContaining({
        kind: 'Deployment',
        name: 'checkout',
        uid: dep.metadata?.uid,
        controller: true,
      }),
    ]);
    for (const p of checkoutPods()) {
      expect(p.metadata.name).toMatch(new RegExp(`^${rs?.metadata?.name ?? 'x'}-[a-z0-9]{5}$`));
      expect(p.metadata.ownerReferences).toEqual([
        expect.objectContaining({
          kind: 'ReplicaSet',
          name: rs?.metadata?.name,
          uid: rs?.metadata?.uid,
          controller: true,
        }),
      ]);
    }
    expect(dep.status?.readyReplicas).toBe(2);
  });

  it('rolls the pods out when kubectl patch changes the template: hold puts istio-proxy first', async () => {
    const before = checkoutPods().map((p) => p.metadata.name);
    expect(before).toHaveLength(2);
    for (const p of checkoutPods()) {
      expect(p.spec.containers.map((c) => c.name)).toEqual(['checkout', 'istio-proxy']);
    }
    const patch = JSON.stringify({
      spec: { template: { metadata: { annotations: { 'proxy.istio.io/config': HOLD } } } },
    });
    expect(await h.kubectl('patch', 'deployment', 'checkout', '-n', 'shop', '-p', patch)).toContain(
      'deployment.apps/checkout patched',
    );
    const fresh = await until('a new ReplicaSet', () => {
      const rs = h.sim.store
        .list('replicasets')
        .filter((r) => r.metadata.labels?.app === 'checkout');
      return rs.length === 2 ? rs : undefined;
    });
    expect(fresh).toHaveLength(2);
    // on the simulated clock: new pods start, old ones stop a few seconds after
    h.sim.clock.advance(60_000);
    const after = checkoutPods();
    expect(after).toHaveLength(2);
    for (const p of after) {
      expect(before).not.toContain(p.metadata.name);
      expect(p.metadata.annotations?.['proxy.istio.io/config']).toBe(HOLD);
      expect(p.spec.containers.map((c) => c.name)).toEqual(['istio-proxy', 'checkout']);
      expect(p.spec.containers[0]?.lifecycle?.postStart).toBeDefined();
      const started = (n: string) =>
        Date.parse(
          p.status?.containerStatuses?.find((c) => c.name === n)?.state?.running?.startedAt ?? '',
        );
      expect(started('checkout')).toBeGreaterThan(started('istio-proxy'));
      expect(p.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    }
    const out = await h.kubectl('get', 'rs', '-n', 'shop', '-l', 'app=checkout', '-o', 'json');
    const list = JSON.parse(out) as {
      items: {
        spec: { replicas: number };
        status: { replicas: number };
        metadata: { annotations: Record<string, string> };
      }[];
    };
    const byRevision = new Map(
      list.items.map((r) => [r.metadata.annotations['deployment.kubernetes.io/revision'], r]),
    );
    expect(byRevision.get('1')?.status.replicas).toBe(0);
    expect(byRevision.get('2')?.status.replicas).toBe(2);
    const dep = await apps().readNamespacedDeployment({ namespace: 'shop', name: 'checkout' });
    expect(dep.metadata?.annotations?.['deployment.kubernetes.io/revision']).toBe('2');
    expect(dep.status).toMatchObject({ replicas: 2, updatedReplicas: 2, readyReplicas: 2 });
    expect(dep.spec?.template?.metadata?.annotations?.['proxy.istio.io/config']).toBe(HOLD);
  });

  it('creates, shows and deletes the other kinds with kubectl', async () => {
    const yaml = `apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata:
  name: deny-all
  namespace: shop
spec:
  action: DENY
---
apiVersion: networking.istio.io/v1
kind: Gateway
metadata:
  name: public
  namespace: istio-system
spec:
  selector:
    istio: ingressgateway
  servers:
  - port: {number: 80, name: http, protocol: HTTP}
    hosts: ["*"]
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: waypoint
  namespace: shop
spec:
  gatewayClassName: istio-waypoint
  listeners:
  - name: mesh
    port: 15008
    protocol: HBONE
---
apiVersion: v1
kind: Secret
metadata:
  name: cacerts
  namespace: istio-system
type: Opaque
data:
  key: c2VjcmV0
`;
    const applied = await h.kubectl('apply', '-f', h.write('kinds.yaml', yaml));
    expect(applied).toContain('authorizationpolicy.security.istio.io/deny-all created');
    expect(applied).toContain('gateway.networking.istio.io/public created');
    expect(applied).toContain('gateway.gateway.networking.k8s.io/waypoint created');
    expect(applied).toContain('secret/cacerts created');
    expect(await h.kubectl('get', 'authorizationpolicies', '-A')).toMatch(
      /shop\s+deny-all\s+DENY\s+/,
    );
    expect(await h.kubectl('get', 'gateways.networking.istio.io', '-A')).toMatch(
      /istio-system\s+public\s+/,
    );
    expect(await h.kubectl('get', 'gateways.gateway.networking.k8s.io', '-A')).toMatch(
      /shop\s+waypoint\s+istio-waypoint\s+/,
    );
    expect(await h.kubectl('get', 'secrets', '-n', 'istio-system')).toMatch(
      /cacerts\s+Opaque\s+1\s+/,
    );
    expect(
      await h.kubectl(
        'patch',
        'authorizationpolicy',
        'deny-all',
        '-n',
        'shop',
        '--type=merge',
        '-p',
        '{"spec":{"action":"AUDIT"}}',
      ),
    ).toContain('patched');
    expect(await h.kubectl('get', 'ap', '-n', 'shop')).toMatch(/deny-all\s+AUDIT/);
    expect(
      await h.kubectl('delete', 'gateway.networking.istio.io', 'public', '-n', 'istio-system'),
    ).toContain('deleted');
    expect(h.sim.store.get('gateways', 'istio-system', 'public')).toBeUndefined();
    expect(h.sim.store.get('k8sgateways', 'shop', 'waypoint')).toBeDefined();
  });

  it('kubectl scale goes through the scale subresource and the controller follows', async () => {
    expect(
      await h.kubectl('scale', 'deployment', 'checkout', '-n', 'shop', '--replicas=3'),
    ).toContain('deployment.apps/checkout scaled');
    await until('a third pod', () => (checkoutPods().length === 3 ? true : undefined));
    h.sim.clock.advance(30_000);
    expect(await h.kubectl('get', 'deploy', 'checkout', '-n', 'shop')).toMatch(
      /checkout\s+3\/3\s+3\s+3\s/,
    );
    const scale = JSON.parse(
      await h.kubectl('get', '--raw', '/apis/apps/v1/namespaces/shop/deployments/checkout/scale'),
    ) as {
      kind: string;
      apiVersion: string;
      spec: { replicas: number };
      status: { selector: string };
    };
    expect(scale).toMatchObject({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      spec: { replicas: 3 },
      status: { selector: 'app=checkout' },
    });
    await expect(
      h.kubectl(
        'scale',
        'deployment',
        'checkout',
        '-n',
        'shop',
        '--replicas=1',
        '--current-replicas=2',
      ),
    ).rejects.toThrow(/Expected replicas to be 2, was 3/);
    await h.kubectl('scale', 'deployment', 'checkout', '-n', 'shop', '--replicas=2');
    h.sim.clock.advance(60_000);
    expect(checkoutPods()).toHaveLength(2);
  });

  it('runs a Deployment created with kubectl: a ReplicaSet, pods injected as the namespace asks', async () => {
    expect(
      await h.kubectl(
        'create',
        'deployment',
        'nginx',
        '-n',
        'shop',
        '--image=nginx:1.27',
        '--replicas=2',
        '--port=80',
      ),
    ).toContain('deployment.apps/nginx created');
    const nginx = () =>
      h.sim.store.list<Pod>('pods').filter((p) => p.metadata.labels?.app === 'nginx');
    // the first pod at once, the next a second later on the simulated clock
    await until('the first pod', () => (nginx().length === 1 ? true : undefined));
    h.sim.clock.advance(30_000);
    expect(nginx()).toHaveLength(2);
    const dep = await apps().readNamespacedDeployment({ namespace: 'shop', name: 'nginx' });
    expect(dep.status).toMatchObject({ replicas: 2, readyReplicas: 2, updatedReplicas: 2 });
    const [rs] = (
      await apps().listNamespacedReplicaSet({ namespace: 'shop', labelSelector: 'app=nginx' })
    ).items;
    expect(rs?.metadata?.ownerReferences?.[0]).toMatchObject({
      kind: 'Deployment',
      uid: dep.metadata?.uid,
    });
    for (const p of nginx()) {
      expect(p.metadata.ownerReferences?.[0]?.uid).toBe(rs?.metadata?.uid);
      // shop has istio-injection=enabled: the app and a classic sidecar
      expect(p.spec.containers.map((c) => [c.name, c.image ?? ''])).toEqual([
        ['nginx', 'nginx:1.27'],
        ['istio-proxy', expect.stringContaining('proxyv2') as unknown as string],
      ]);
      expect(p.spec.containers[0]?.ports?.[0]?.containerPort).toBe(80);
    }
  });

  it('deleting a Deployment takes its ReplicaSets and pods with it', async () => {
    expect(await h.kubectl('delete', 'deployment', 'checkout', '-n', 'shop')).toContain('deleted');
    await until('the ReplicaSets to go', () =>
      h.sim.store.list('replicasets').some((r) => r.metadata.labels?.app === 'checkout')
        ? undefined
        : true,
    );
    h.sim.clock.advance(60_000);
    expect(checkoutPods()).toEqual([] as V1Pod[]);
  });
});
