import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pod } from '../../lib/kube/types';
import { startSimulator } from '../../server/sim/index';
import { KubeError } from '../../server/kube/errors';
import { ListWatcher, type ObservedEvent } from '../../server/kube/listwatch';
import { podLogs } from '../../server/kube/logs';
import { envoyAdminGet, podProxyGet, portForwardGet } from '../../server/kube/podports';
import {
  CORE,
  getIstioConfigMap,
  listIstioConfig,
  listPods,
  servedIstioVersion,
} from '../../server/kube/resources';
import { KubeTransport } from '../../server/kube/transport';
import { adapterScenario, ADAPTER_POD, ISTIOD_POD } from './scenario';
import { podKey } from '../../lib/refs/pod-ref';
import {
  EVENT_WAIT_GUARD_MS,
  NO_PROXY_TIMEOUT_FOR_COMPLETENESS,
} from '../../test-support/deadlines';

type Sim = Awaited<ReturnType<typeof startSimulator>>;
let sim: Sim;
let kc: KubeConfig;
let t: KubeTransport;

beforeAll(async () => {
  sim = await startSimulator({
    scenario: 'adapter-test',
    port: 0,
    clock: { fixed: new Date('2026-01-01T00:00:00Z') },
    scenarioImpl: adapterScenario,
  });
  kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfigYaml);
  t = new KubeTransport(kc);
});

afterAll(async () => {
  t?.close();
  await sim?.close();
});

describe('the cluster adapter against the simulator (real client-node over HTTP)', () => {
  it('lists pods across namespaces and in one, with selectors', async () => {
    const all = await listPods(t);
    expect(all.items.map((p) => p.metadata.name).sort()).toEqual(
      sim.store
        .list<Pod>('pods')
        .map((p) => p.metadata.name)
        .sort(),
    );
    expect(all.resourceVersion).toMatch(/^\d+$/);
    const shop = await listPods(t, { namespace: 'shop' });
    expect(shop.items.every((p) => p.metadata.namespace === 'shop')).toBe(true);
    const byLabel = await listPods(t, { labelSelector: 'app=payments' });
    expect(byLabel.items.map((p) => p.metadata.name)).toEqual([ADAPTER_POD]);
  });

  it('finds the served Istio version and lists Istio config', async () => {
    expect(await servedIstioVersion(t)).toBe('v1');
    const istio = await listIstioConfig(t);
    expect(istio.sidecars.map((s) => s.metadata.name)).toEqual(['default']);
    const cm = await getIstioConfigMap(t);
    expect(cm?.data?.mesh).toContain('defaultConfig');
  });

  it('reads container logs with tailLines and sinceTime', async () => {
    const all = await podLogs(t, 'shop', ADAPTER_POD, 'istio-proxy');
    expect(all.trim().split('\n')).toHaveLength(3);
    const tail = await podLogs(t, 'shop', ADAPTER_POD, 'istio-proxy', { tailLines: 1 });
    expect(tail.trim()).toContain('third');
    const since = await podLogs(t, 'shop', ADAPTER_POD, 'istio-proxy', {
      sinceTime: '2025-12-31T23:59:30Z',
    });
    expect(since.trim().split('\n')).toHaveLength(2);
  });

  it("reads a restarted container's previous run; 400 when there was none", async () => {
    const noPrev = await podLogs(t, 'shop', ADAPTER_POD, 'istio-proxy', { previous: true }).catch(
      (e: unknown) => e,
    );
    expect(noPrev).toMatchObject({ status: 400 });
    expect((noPrev as Error).message).toContain(
      `previous terminated container "istio-proxy" in pod "${ADAPTER_POD}" not found`,
    );
    const pod = sim.store.get<Pod>('pods', 'shop', 'checkout-1')!;
    const statuses = pod.status!.containerStatuses!.map((c) =>
      c.name === 'checkout'
        ? {
            ...c,
            restartCount: 1,
            lastState: {
              terminated: {
                exitCode: 1,
                reason: 'Error',
                startedAt: '2025-12-31T22:59:50Z',
                finishedAt: '2025-12-31T22:59:52Z',
              },
            },
          }
        : c,
    );
    sim.store.upsert('pods', { ...pod, status: { ...pod.status, containerStatuses: statuses } });
    const prev = await podLogs(t, 'shop', 'checkout-1', 'checkout', { previous: true });
    const lines = prev.trim().split('\n');
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.join('\n')).toContain('connection refused');
    expect(lines[lines.length - 1]).toContain('exiting with code 1');
  });

  it('GETs a pod port through pods/proxy and Envoy admin through port-forward', async () => {
    const ready = await podProxyGet(t, 'shop', ADAPTER_POD, 15021, '/healthz/ready');
    expect(ready.status).toBe(200);
    const info = await envoyAdminGet(kc, 'shop', ADAPTER_POD, '/server_info');
    expect(info.status).toBe(200);
    expect(JSON.parse(info.body)).toHaveProperty('state');
  });

  it("reads istiod's debug port over port-forward", async () => {
    const syncz = await portForwardGet(kc, 'istio-system', ISTIOD_POD, 15014, '/debug/syncz');
    expect(syncz.status).toBe(200);
    expect(Array.isArray(JSON.parse(syncz.body))).toBe(true);
  });

  it.each([
    ['Envoy admin', 'shop', ADAPTER_POD, 15000, '/server_info'],
    ['istiod', 'istio-system', ISTIOD_POD, 15014, '/debug/syncz'],
  ] as const)(
    'an unreachable pod behind port-forward (%s) is "unreachable" with the kubelet\'s reason',
    async (_what, ns, pod, port, path) => {
      sim.faults.unreachablePods.add(podKey(ns, pod));
      try {
        const err = await portForwardGet(kc, ns, pod, port, path, { timeoutMs: 5_000 }).catch(
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(KubeError);
        expect((err as KubeError).kind).toBe('unreachable');
        expect((err as KubeError).message).toContain(`${podKey(ns, pod)}:${port}`);
        expect((err as KubeError).message).toMatch(
          new RegExp(`error forwarding port ${port} .*connection refused`),
        );
      } finally {
        sim.faults.unreachablePods.clear();
      }
    },
  );

  it('a port nothing listens on is 503 ServiceUnavailable through pods/proxy, refused over port-forward', async () => {
    const raw = await fetch(`${sim.url}/api/v1/namespaces/shop/pods/${ADAPTER_POD}:8089/proxy/`);
    expect(raw.status).toBe(503);
    expect(await raw.json()).toMatchObject({
      kind: 'Status',
      reason: 'ServiceUnavailable',
      message: expect.stringContaining('connect: connection refused') as unknown,
    });
    const pf = await portForwardGet(kc, 'shop', ADAPTER_POD, 15014, '/debug/syncz').catch(
      (e: unknown) => e,
    );
    expect(pf).toMatchObject({ kind: 'unreachable' });
    expect((pf as Error).message).toContain('connection refused');
  });

  it('refuses bad names before any request and maps API errors', async () => {
    await expect(listPods(t, { namespace: '../kube-system' })).rejects.toThrow(
      /invalid namespace name/,
    );
    await expect(podProxyGet(t, 'shop', 'UPPER', 15021, '/healthz/ready')).rejects.toThrow(
      /invalid pod name/,
    );
    await expect(podProxyGet(t, 'shop', ADAPTER_POD, 15000, '/config_dump')).rejects.toThrow(
      /not read through pods\/proxy/,
    );
    const err = await t.getJson('/api/v1/namespaces/shop/pods/nope').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KubeError);
    expect((err as KubeError).status).toBe(404);
    expect((err as KubeError).reason).toBe('NotFound');
  });

  it('times out a slow pod without blocking the others', async () => {
    sim.faults.slowPods.set(`shop/${ADAPTER_POD}`, 3_000);
    try {
      const slow = podProxyGet(t, 'shop', ADAPTER_POD, 15021, '/healthz/ready', { timeoutMs: 300 });
      await expect(slow).rejects.toMatchObject({ kind: 'timeout' });
      const other = await podProxyGet(t, 'shop', 'checkout-1', 15021, '/healthz/ready', {
        timeoutMs: NO_PROXY_TIMEOUT_FOR_COMPLETENESS,
      });
      expect(other.status).toBe(200);
    } finally {
      sim.faults.slowPods.clear();
    }
  });

  it("reads time on the API server's clock, not this machine's", async () => {
    await listPods(t);
    const simNow = sim.clock.now().getTime();
    expect(Math.abs(t.clusterNow().getTime() - simNow)).toBeLessThanOrEqual(1500);
    expect(Math.abs(Date.now() - simNow)).toBeGreaterThan(86_400_000);
  });

  it('an unreachable API server is an "unreachable" error, not a hang', async () => {
    const dead = new KubeConfig();
    dead.loadFromString(sim.kubeconfigYaml.replace(/127\.0\.0\.1:\d+/, '127.0.0.1:9'));
    const dt = new KubeTransport(dead);
    await expect(listPods(dt)).rejects.toMatchObject({ kind: 'unreachable' });
    dt.close();
  });
});

describe('ListWatcher', () => {
  it('never dates an observation before what the object itself reports', async () => {
    const events: ObservedEvent<Pod>[] = [];
    const stale = new Date('2020-01-01T00:00:00Z');
    const w = new ListWatcher<Pod>(t, kc, CORE.pods, {
      namespace: 'shop',
      onEvent: (e) => events.push(e),
      now: () => stale,
      floor: (p) => Date.parse(p.status?.startTime ?? '') || null,
    });
    await w.start();
    w.stop();
    expect(events.length).toBeGreaterThan(0);
    for (const e of events) {
      const start = Date.parse(e.object.status?.startTime ?? '');
      expect(e.observedAt.getTime()).toBe(Number.isNaN(start) ? stale.getTime() : start);
    }
  });

  it('resumes a dropped watch without losing a change', async () => {
    const events: ObservedEvent<Pod>[] = [];
    const w = new ListWatcher<Pod>(t, kc, CORE.pods, {
      namespace: 'shop',
      onEvent: (e) => events.push(e),
      backoffMs: [50, 200],
    });
    await w.start();
    const initial = events.length;
    expect(initial).toBe(
      sim.store.list<Pod>('pods').filter((p) => p.metadata.namespace === 'shop').length,
    );

    // a change seen live
    const pod = sim.store.get<Pod>('pods', 'shop', 'checkout-1')!;
    sim.store.upsert('pods', {
      ...pod,
      metadata: { ...pod.metadata, labels: { ...pod.metadata.labels, seen: 'live' } },
    });
    await expect.poll(() => events.filter((e) => e.via === 'watch').length).toBeGreaterThan(0);

    // drop every watch; a deletion while it is down must still arrive
    sim.faults.dropWatchesAfterMs = 1;
    await new Promise((r) => setTimeout(r, 100));
    sim.store.remove('pods', 'shop', 'checkout-1');
    sim.faults.dropWatchesAfterMs = 0;
    await expect
      .poll(
        () => events.some((e) => e.type === 'DELETED' && e.object.metadata.name === 'checkout-1'),
        { timeout: EVENT_WAIT_GUARD_MS },
      )
      .toBe(true);
    expect(w.snapshot().some((p) => p.metadata.name === 'checkout-1')).toBe(false);
    w.stop();
  });
});

describe('ListWatcher after its resourceVersion expired', () => {
  let small: Sim;
  let skc: KubeConfig;
  let st: KubeTransport;
  beforeAll(async () => {
    // a watch cache of 3 changes: a watcher that misses more must be told 410 Gone
    small = await startSimulator({
      scenario: 'adapter-test',
      port: 0,
      clock: { fixed: new Date('2026-01-01T00:00:00Z') },
      scenarioImpl: adapterScenario,
      historySize: 3,
    });
    skc = new KubeConfig();
    skc.loadFromString(small.kubeconfigYaml);
    st = new KubeTransport(skc);
  });
  afterAll(async () => {
    st?.close();
    await small?.close();
  });

  it('relists after 410 Gone and emits the missed change via reconcile', async () => {
    const events: ObservedEvent<Pod>[] = [];
    const details: string[] = [];
    const w = new ListWatcher<Pod>(st, skc, CORE.pods, {
      namespace: 'shop',
      onEvent: (e) => events.push(e),
      onState: (_s, detail) => {
        if (detail) details.push(detail);
      },
      backoffMs: [50, 200],
    });
    await w.start();
    await new Promise((r) => setTimeout(r, 100));

    // the open watch is dropped; the watcher's reconnect is held up (API latency) while more
    // changes happen than the server's watch cache keeps
    small.faults.latencyMs = 1_500;
    small.faults.dropWatchesAfterMs = 1;
    await new Promise((r) => setTimeout(r, 300));
    small.faults.dropWatchesAfterMs = 0;
    const pod = small.store.get<Pod>('pods', 'shop', 'checkout-1')!;
    small.store.upsert('pods', {
      ...pod,
      metadata: { ...pod.metadata, labels: { ...pod.metadata.labels, missed: 'yes' } },
    });
    for (let i = 0; i < 5; i++) {
      small.store.upsert('configmaps', {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `filler-${i}`, namespace: 'istio-system' },
        data: { i: String(i) },
      });
    }
    small.faults.latencyMs = 0;
    expect(events.some((e) => e.object.metadata.labels?.missed === 'yes')).toBe(false);

    await expect
      .poll(
        () =>
          events.find(
            (e) =>
              e.type === 'MODIFIED' &&
              e.object.metadata.name === 'checkout-1' &&
              e.object.metadata.labels?.missed === 'yes',
          )?.via,
        { timeout: EVENT_WAIT_GUARD_MS },
      )
      .toBe('reconcile');
    expect(
      w.snapshot().find((p) => p.metadata.name === 'checkout-1')?.metadata.labels?.missed,
    ).toBe('yes');
    expect(details).toContain('resourceVersion expired (410 Gone): relisting');
    w.stop();
  });
});
