import { describe, it, expect } from 'vitest';
import type { ConfigMap, KubeEvent, Pod } from '../../../lib/kube/types';
import { analyzePods } from '../../../lib/timeline/analyze';
import { parseMeshConfig } from '../../../lib/timeline/meshconfig';
import { startupRace } from './startup-race';
import { FakeStore, harness } from './testing/fakes';
import { replayProblems } from './testing/invariants';
import { VerdictSchema } from '../../../lib/api/timelines';

const inNs = (pods: readonly Pod[], ns: string, app: string) =>
  pods.filter((p) => p.metadata.namespace === ns && p.metadata.labels?.app === app);
const names = (c: { name: string }[] | undefined) => (c ?? []).map((x) => x.name);

describe('startup-race', () => {
  const h = harness('startup-race');
  startupRace.start(h.ctx);
  const pods = h.store.list<Pod>('pods');

  it('has a classic racer: proxy after the app, app crashed once with exit 1 and restarted', () => {
    const [p] = inNs(pods, 'race-lab', 'orders');
    expect(names(p?.spec.containers)).toEqual(['orders', 'istio-proxy']);
    const app = p?.status?.containerStatuses?.find((c) => c.name === 'orders');
    expect(app?.restartCount).toBe(1);
    expect(app?.lastState?.terminated?.exitCode).toBe(1);
    const proxy = p?.status?.containerStatuses?.find((c) => c.name === 'istio-proxy');
    expect(Date.parse(app?.lastState?.terminated?.startedAt ?? '')).toBeLessThanOrEqual(
      Date.parse(proxy?.state?.running?.startedAt ?? ''),
    );
  });

  it('has a lucky classic pod, hold via annotation and via injection, native, wrapper and no-proxy pods', () => {
    const lucky = inNs(pods, 'race-lab', 'catalog')[0];
    expect(lucky?.status?.containerStatuses?.every((c) => c.restartCount === 0)).toBe(true);
    const hold = inNs(pods, 'race-lab', 'billing')[0];
    expect(hold?.metadata.annotations?.['proxy.istio.io/config']).toBe(
      '{"holdApplicationUntilProxyStarts":true}',
    );
    expect(hold?.spec.containers[0]?.lifecycle?.postStart?.exec?.command).toEqual([
      'pilot-agent',
      'wait',
    ]);
    const injected = inNs(pods, 'race-lab', 'ledger')[0];
    expect(injected?.metadata.annotations?.['proxy.istio.io/config']).toBeUndefined();
    expect(injected?.spec.containers[0]?.name).toBe('istio-proxy');
    const native = inNs(pods, 'race-lab', 'search')[0];
    expect(native?.spec.initContainers?.find((c) => c.name === 'istio-proxy')?.restartPolicy).toBe(
      'Always',
    );
    expect(native?.metadata.annotations?.['sidecar.istio.io/nativeSidecar']).toBe('true');
    const wrapper = inNs(pods, 'race-lab', 'reports')[0];
    expect(wrapper?.spec.containers[0]?.command?.join(' ')).toContain(
      'localhost:15021/healthz/ready',
    );
    const bare = inNs(pods, 'race-lab', 'legacy-cron')[0];
    expect(names(bare?.spec.containers)).toEqual(['legacy-cron']);
    expect(bare?.spec.initContainers).toBeUndefined();
  });

  it('has terminating pods: drain shorter than preStop, grace exceeded, EXIT_ON_ZERO_ACTIVE_CONNECTIONS', () => {
    const cart = inNs(pods, 'race-drain', 'cart').find(
      (p) => p.metadata.deletionTimestamp !== undefined,
    );
    expect(cart?.metadata.deletionGracePeriodSeconds).toBe(60);
    expect(cart?.spec.containers[0]?.lifecycle?.preStop?.exec?.command).toEqual(['sleep', '20']);
    expect(cart?.metadata.annotations?.['proxy.istio.io/config']).toBe(
      '{"terminationDrainDuration":"5s"}',
    );
    expect(cart?.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('False');
    const exporter = inNs(pods, 'race-drain', 'exporter').find(
      (p) => p.metadata.deletionTimestamp !== undefined,
    );
    expect(exporter?.spec.terminationGracePeriodSeconds).toBe(30);
    expect(exporter?.spec.containers[0]?.lifecycle?.preStop?.exec?.command).toEqual([
      'sleep',
      '45',
    ]);
    const streamer = inNs(pods, 'race-drain', 'streamer')[0];
    const env = streamer?.spec.containers.find((c) => c.name === 'istio-proxy')?.env;
    expect(env?.find((e) => e.name === 'EXIT_ON_ZERO_ACTIVE_CONNECTIONS')?.value).toBe('true');
  });

  it('writes kubelet events with container field paths, probe failures on the pod IP, BackOff and Killing', () => {
    const events = h.store.list<KubeEvent>('events');
    const unhealthy = events.find((e) => e.reason === 'Unhealthy');
    expect(unhealthy?.involvedObject.fieldPath).toBe('spec.containers{istio-proxy}');
    expect(unhealthy?.message).toMatch(
      /^Readiness probe failed: Get "http:\/\/10\.\d+\.\d+\.\d+:15021\/healthz\/ready": dial tcp .*connection refused$/,
    );
    for (const r of ['Scheduled', 'Pulled', 'Created', 'Started', 'BackOff', 'Killing']) {
      expect(events.some((e) => e.reason === r)).toBe(true);
    }
  });

  it('a pod starting after the clock start goes through its transitions in order as MODIFIED events', () => {
    const h2 = harness('startup-race');
    startupRace.start(h2.ctx);
    const before = h2.store.changes.length;
    expect(h2.store.list<Pod>('pods').some((p) => p.metadata.labels?.app === 'frontend')).toBe(
      false,
    );
    h2.clock.advance(60_000);
    const seen = h2.store.changes
      .slice(before)
      .filter((c) => c.kind === 'pods' && c.object.metadata.labels?.app === 'frontend');
    expect(seen[0]?.type).toBe('ADDED');
    expect(seen.length).toBeGreaterThan(5);
    const readyAt = seen.map(
      (c) => (c.object as Pod).status?.conditions?.find((x) => x.type === 'Ready')?.status,
    );
    expect(readyAt[0]).toBe('False');
    expect(readyAt.at(-1)).toBe('True');
    // The grace-exceeded pod is gone once its grace ran out, and the EXIT_ON_ZERO pod is terminating.
    expect(
      h2.store.list<Pod>('pods').filter((p) => p.metadata.labels?.app === 'exporter'),
    ).toHaveLength(1);
    expect(
      h2.store.changes.some(
        (c) => c.kind === 'events' && (c.object as KubeEvent).reason === 'FailedPreStopHook',
      ),
    ).toBe(true);
  });

  describe('as lib/timeline judges it (scenario events and mesh config)', () => {
    const cm = h.store.list<ConfigMap>('configmaps').find((c) => c.metadata.name === 'istio');
    const mesh = cm ? parseMeshConfig(JSON.stringify(cm)).settings : undefined;
    const events = h.store.list<KubeEvent>('events');
    const timelines = analyzePods(pods, { ...(mesh ? { mesh } : {}), events });
    const verdictsOf = (app: string) =>
      timelines
        .filter((t) => t.workload?.name === app || t.name.startsWith(`${app}-`))
        .map((t) => t.verdicts.map((v) => v.verdict));

    // every verdict the view knows, as its contract lists them, except the native sidecar's own
    // failures (the native-sidecar scenario has them, mesh-modes.test.ts) and the verdicts only a
    // spec without status or a pod hanging in Terminating give (not simulated), and the ways an
    // instance ends that are not a race (lib/timeline/instances.test.ts judges them on real
    // statuses: a node restart, a kill at shutdown)
    const elsewhere = new Set([
      // the drain order at deletion of a native and an ambient pod (lib/timeline/drain-order.test.ts)
      'native-drain-at-deletion',
      'ambient-gone-before-ztunnel',
      'pod-restart',
      'app-crash',
      'init-failed',
      'exit-at-shutdown',
      'native-unobserved',
      'native-not-ready',
      'native-stuck-terminating',
      'hold-redundant',
    ]);
    it.each(VerdictSchema.options.filter((v) => !elsewhere.has(v)))(
      'gives %s at least once',
      (verdict) => {
        expect(timelines.some((t) => t.verdicts.some((v) => v.verdict === verdict))).toBe(true);
      },
    );

    it('the lucky classic workload does not race: its app started after the proxy was ready', () => {
      const lucky = verdictsOf('catalog');
      expect(lucky).toHaveLength(2);
      for (const v of lucky) expect(v).toEqual(['classic-ok']);
      const t = timelines.find((x) => x.name.startsWith('catalog-'));
      expect(t?.mode).toBe('classic');
      expect(t?.gapMs).toBeGreaterThan(2000);
    });

    it('the pod stuck in ContainerCreating is unknown, saying its app has not started', () => {
      const stuck = timelines.filter((x) => x.name.startsWith('inventory-'));
      expect(stuck).toHaveLength(1);
      const v = stuck[0]?.verdicts;
      expect(v?.map((x) => x.verdict)).toEqual(['unknown']);
      expect(v?.[0]?.evidence.reason).toBe('no start time for inventory');
    });
  });

  it('the lucky pods show the failed pull and back-off before the app started', () => {
    const pod = inNs(pods, 'race-lab', 'catalog')[0];
    const ev = h.store
      .list<KubeEvent>('events')
      .filter(
        (e) =>
          e.involvedObject.name === pod?.metadata.name &&
          e.involvedObject.fieldPath === 'spec.containers{catalog}',
      );
    expect(ev.map((e) => e.message)).toEqual(
      expect.arrayContaining(['Error: ErrImagePull', 'Error: ImagePullBackOff']),
    );
    const pulled = ev.find((e) => e.reason === 'Pulled');
    expect(pulled?.message).toMatch(/^Successfully pulled image ".*catalog:v1" in 0\.900s/);
    const status = pod?.status?.containerStatuses?.find((c) => c.name === 'catalog');
    expect(status?.restartCount).toBe(0);
  });

  it('the stuck pod is Pending with no IP, its containers waiting, and reports FailedMount', () => {
    const pod = inNs(pods, 'race-lab', 'inventory')[0];
    expect(pod?.status?.phase).toBe('Pending');
    expect(pod?.status?.podIP).toBeUndefined();
    const waiting = pod?.status?.containerStatuses?.map((c) => c.state?.waiting?.reason);
    expect(waiting).toEqual(['PodInitializing', 'PodInitializing']);
    expect(pod?.status?.conditions?.find((c) => c.type === 'Initialized')?.status).toBe('False');
    const mount = h.store
      .list<KubeEvent>('events')
      .find((e) => e.involvedObject.name === pod?.metadata.name && e.reason === 'FailedMount');
    expect(mount?.message).toBe(
      'MountVolume.SetUp failed for volume "config" : configmap "inventory-config" not found',
    );
    expect(mount?.count).toBeGreaterThan(5);
    expect(JSON.stringify(pod?.spec)).toContain('"configMap":{"name":"inventory-config"}');
  });

  it('the replay checker itself catches a duplicate IP', () => {
    const s = new FakeStore();
    const pod = (name: string): Pod => ({
      metadata: { name, namespace: 'x', uid: name },
      spec: { containers: [] },
      status: { podIP: '10.0.0.1' },
    });
    s.upsert('pods', pod('a'));
    s.upsert('pods', pod('b'));
    expect(replayProblems(s)).toHaveLength(1);
  });
});
