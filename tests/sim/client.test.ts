import net, { type AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import {
  ApiException,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  PortForward,
  type V1Pod,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../server/sim/index';
import {
  expectConfigDumpThrough,
  fakeMesh,
  HELLO,
  KUBE_DNS,
  localGet,
  proxyLogLines,
  START,
  testScenario,
} from './world';
import { podKeyOfObject } from '../../lib/refs/pod-ref';
import { EVENT_WAIT_GUARD_MS } from '../../test-support/deadlines';

let sim: RunningSimulator;
let kc: KubeConfig;
let core: CoreV1Api;
let custom: CustomObjectsApi;

beforeAll(async () => {
  sim = await startSimulator({
    scenario: 'sim-test',
    scenarioImpl: testScenario,
    meshImpl: fakeMesh,
    clock: { fixed: START },
    api: { dialTimeoutMs: 200, bookmarkIntervalMs: 100 },
  });
  kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfigYaml);
  core = kc.makeApiClient(CoreV1Api);
  custom = kc.makeApiClient(CustomObjectsApi);
});
afterAll(async () => sim?.close());

const names = (pods: V1Pod[]): string[] => pods.map((p) => p.metadata?.name ?? '').sort();

describe('client-node 1.4 against the simulator: lists and selectors', () => {
  it('lists pods in all namespaces and in one', async () => {
    const all = await core.listPodForAllNamespaces();
    expect(names(all.items)).toEqual([HELLO, KUBE_DNS, 'web-1', 'web-2'].sort());
    expect(Number(all.metadata?.resourceVersion)).toBe(sim.store.resourceVersion());
    const shop = await core.listNamespacedPod({ namespace: 'shop' });
    expect(names(shop.items)).toEqual([HELLO, 'web-1', 'web-2']);
    // the real fixture pod keeps its native sidecar
    const hello = shop.items.find((p) => p.metadata?.name === HELLO);
    expect(hello?.spec?.initContainers?.map((c) => c.name)).toEqual(['istio-init', 'istio-proxy']);
    expect(hello?.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('filters by label and field selectors', async () => {
    const v = async (labelSelector?: string, fieldSelector?: string) =>
      names((await core.listPodForAllNamespaces({ labelSelector, fieldSelector })).items);
    expect(await v('app=web,version!=v1')).toEqual(['web-2']);
    expect(await v('version in (v1,v3)')).toEqual(['web-1']);
    expect(await v('!version')).toEqual([HELLO, KUBE_DNS].sort());
    expect(await v(undefined, 'status.phase=Running')).toEqual([HELLO, KUBE_DNS, 'web-1'].sort());
    expect(await v(undefined, 'spec.nodeName=node-a')).toEqual([HELLO]);
    expect(await v('app=web', 'metadata.name!=web-1')).toEqual(['web-2']);
    const err = await core
      .listPodForAllNamespaces({ fieldSelector: 'spec.bogus=1' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiException);
    expect((err as ApiException<string>).code).toBe(400);
  });

  it('reads one pod and maps a missing one to 404 NotFound', async () => {
    const p = await core.readNamespacedPod({ namespace: 'kube-system', name: KUBE_DNS });
    expect(p.status?.podIP).toBe('10.40.1.4');
    const err = (await core
      .readNamespacedPod({ namespace: 'shop', name: 'nope' })
      .catch((e: unknown) => e)) as ApiException<string>;
    expect(err.code).toBe(404);
    expect(JSON.parse(err.body) as { reason: string }).toMatchObject({
      reason: 'NotFound',
      message: 'pods "nope" not found',
    });
  });
});

describe('Istio custom objects', () => {
  it('lists sidecars under every served version with the apiVersion rewritten', async () => {
    for (const version of ['v1', 'v1beta1', 'v1alpha3']) {
      const list = (await custom.listClusterCustomObject({
        group: 'networking.istio.io',
        version,
        plural: 'sidecars',
      })) as {
        kind: string;
        items: { apiVersion: string; metadata: { name: string; namespace: string } }[];
      };
      expect(list.kind).toBe('SidecarList');
      expect(list.items.map((i) => podKeyOfObject(i))).toEqual(['shop/default']);
      expect(list.items[0]?.apiVersion).toBe(`networking.istio.io/${version}`);
    }
  });

  it('creates a VirtualService, refuses a duplicate, a bad name and bad JSON', async () => {
    const body = {
      apiVersion: 'networking.istio.io/v1',
      kind: 'VirtualService',
      metadata: { name: 'web-retries' },
      spec: { hosts: ['web'], http: [{ retries: { attempts: 3 } }] },
    };
    const group = 'networking.istio.io';
    const made = (await custom.createNamespacedCustomObject({
      group,
      version: 'v1',
      namespace: 'shop',
      plural: 'virtualservices',
      body,
    })) as {
      metadata: { namespace: string; resourceVersion: string };
    };
    expect(made.metadata.namespace).toBe('shop');
    expect(Number(made.metadata.resourceVersion)).toBe(sim.store.resourceVersion());
    expect(sim.store.get('virtualservices', 'shop', 'web-retries')).toBeDefined();
    const dup = (await custom
      .createNamespacedCustomObject({
        group,
        version: 'v1',
        namespace: 'shop',
        plural: 'virtualservices',
        body,
      })
      .catch((e: unknown) => e)) as ApiException<string>;
    expect(dup.code).toBe(409);
    expect(dup.body).toContain('"reason":"AlreadyExists"');
    const bad = (await custom
      .createNamespacedCustomObject({
        group,
        version: 'v1',
        namespace: 'shop',
        plural: 'virtualservices',
        body: { ...body, metadata: { name: 'Bad_Name' } },
      })
      .catch((e: unknown) => e)) as ApiException<string>;
    expect(bad.code).toBe(422);
    const raw = await fetch(`${sim.url}/apis/${group}/v1/namespaces/shop/virtualservices`, {
      method: 'POST',
      body: '{"metadata":',
    });
    expect(raw.status).toBe(400);
    expect(((await raw.json()) as { reason: string }).reason).toBe('BadRequest');
  });
});

describe('pods/log', () => {
  const fixtureLines = proxyLogLines();

  it('serves the whole container log, a tail and sinceTime, with kubelet timestamps', async () => {
    const all = await core.readNamespacedPodLog({
      namespace: 'shop',
      name: HELLO,
      container: 'istio-proxy',
    });
    expect(all.split('\n').slice(0, -1)).toEqual(fixtureLines.map((l) => l.line));
    const tail = await core.readNamespacedPodLog({
      namespace: 'shop',
      name: HELLO,
      container: 'istio-proxy',
      tailLines: 2,
      timestamps: true,
    });
    const last = fixtureLines.slice(-2);
    expect(tail).toBe(
      last.map((l) => `${l.time.toISOString().replace(/Z$/, '000000Z')} ${l.line}\n`).join(''),
    );
    const cut = fixtureLines[100]?.time ?? START;
    const since = await fetch(
      `${sim.url}/api/v1/namespaces/shop/pods/${HELLO}/log?container=istio-proxy&sinceTime=${cut.toISOString()}`,
    );
    const expected = fixtureLines.filter((l) => l.time >= cut).length;
    expect((await since.text()).split('\n').length - 1).toBe(expected);
  });

  it('defaults the only container and asks for one on a multi-container pod', async () => {
    expect(await core.readNamespacedPodLog({ namespace: 'shop', name: HELLO })).toBe(
      'hello started\n',
    );
    const err = (await core
      .readNamespacedPodLog({ namespace: 'kube-system', name: KUBE_DNS })
      .catch((e: unknown) => e)) as ApiException<string>;
    expect(err.code).toBe(400);
    expect(err.body).toContain(
      `a container name must be specified for pod ${KUBE_DNS}, choose one of: [kubedns dnsmasq sidecar`,
    );
  });
});

describe('pods/proxy', () => {
  it('passes path and query to the mesh emulator, on the named or default port', async () => {
    const got = await core.connectGetNamespacedPodProxyWithPath({
      namespace: 'shop',
      name: `${HELLO}:15020`,
      path: 'stats/prometheus',
    });
    // client-node parses a JSON answer itself: the "string" it promises is the decoded body
    expect(got as unknown).toEqual({
      pod: HELLO,
      port: 15020,
      path: '/stats/prometheus',
      query: '',
    });
    const dflt = await fetch(`${sim.url}/api/v1/namespaces/shop/pods/${HELLO}/proxy/healthz?x=1`);
    expect(await dflt.json()).toEqual({ pod: HELLO, port: 80, path: '/healthz', query: 'x=1' });
    const missing = await fetch(`${sim.url}/api/v1/namespaces/shop/pods/web-1:15020/proxy/missing`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe('not found\n');
  });

  it('answers 404 for a missing pod, 503 for a pending one, the admin port and an unreachable one', async () => {
    const st = async (path: string) =>
      (await fetch(`${sim.url}/api/v1/namespaces/shop/pods/${path}`)).status;
    expect(await st('ghost:15020/proxy/')).toBe(404);
    expect(await st('web-2:15020/proxy/healthz/ready')).toBe(503);
    expect(await st(`${HELLO}:15000/proxy/config_dump`)).toBe(503);
    sim.faults.unreachablePods.add('shop/web-1');
    try {
      const r = await fetch(
        `${sim.url}/api/v1/namespaces/shop/pods/web-1:15020/proxy/healthz/ready`,
      );
      expect(r.status).toBe(503);
      expect(((await r.json()) as { message: string }).message).toBe(
        'error trying to reach service: dial tcp 10.0.0.6:15020: i/o timeout',
      );
    } finally {
      sim.faults.unreachablePods.clear();
    }
  });
});

describe('pods/portforward (client-node PortForward through a local TCP listener)', () => {
  async function forward(
    pod: string,
  ): Promise<{ port: number; server: net.Server; errors: PassThrough }> {
    const pf = new PortForward(kc);
    const errors = new PassThrough();
    const server = net.createServer((socket) => {
      void pf.portForward('shop', pod, [15000], socket, errors, socket);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return { port: (server.address() as AddressInfo).port, server, errors };
  }
  it('carries an HTTP GET to Envoy admin on 15000 and back', async () => {
    const { port, server } = await forward(HELLO);
    try {
      await expectConfigDumpThrough(port, HELLO);
      const again = await localGet(port, '/missing');
      expect(again.status).toBe(404);
    } finally {
      server.close();
    }
  });

  it('reports an unreachable pod on the error channel', async () => {
    sim.faults.unreachablePods.add('shop/web-1');
    const { port, server, errors } = await forward('web-1');
    try {
      let text = '';
      errors.on('data', (c: Buffer) => (text += c.toString()));
      const sock = net.connect(port, '127.0.0.1', () =>
        sock.write('GET /ready HTTP/1.1\r\nHost: x\r\n\r\n'),
      );
      await expect
        .poll(() => text, { timeout: EVENT_WAIT_GUARD_MS })
        .toContain('error forwarding port 15000 to pod shop/web-1');
      sock.destroy();
    } finally {
      sim.faults.unreachablePods.clear();
      server.close();
    }
  });
});
