import { describe, it, expect } from 'vitest';
import { createIds, seededRandom } from './ids';
import { NODES } from './nodes';
import { podTemplate } from './podspec';
import { parseDuration, planStart, planStop } from './plan';
import { imageIdOf, podStatusAt } from './status';
import { eventsOf } from './events';
import { readFixture } from '../../../../test-support/fixtures';

const T = Date.parse('2026-01-01T00:00:00Z');
const node = NODES[0] ?? { name: 'n', hostIP: '10.0.0.1', podNet: 40 };
const ids = () => createIds(seededRandom('status-test'));

describe('podTemplate', () => {
  it('puts istio-proxy after the app for classic, first with postStart for hold, in initContainers for native', () => {
    const classic = podTemplate({ name: 'a', replicas: 1 }, 'ns', 'h');
    expect(classic.spec.containers.map((c) => c.name)).toEqual(['a', 'istio-proxy']);
    expect(classic.spec.initContainers?.map((c) => c.name)).toEqual(['istio-init']);
    const hold = podTemplate({ name: 'a', replicas: 1, mode: 'hold-annotation' }, 'ns', 'h');
    expect(hold.spec.containers.map((c) => c.name)).toEqual(['istio-proxy', 'a']);
    expect(hold.spec.containers[0]?.lifecycle?.postStart?.exec?.command).toEqual([
      'pilot-agent',
      'wait',
    ]);
    expect(JSON.parse(hold.annotations['proxy.istio.io/config'] ?? '{}')).toEqual({
      holdApplicationUntilProxyStarts: true,
    });
    const injected = podTemplate({ name: 'a', replicas: 1, mode: 'hold-injected' }, 'ns', 'h');
    expect(injected.annotations['proxy.istio.io/config']).toBeUndefined();
    expect(injected.spec.containers[0]?.name).toBe('istio-proxy');
    const native = podTemplate({ name: 'a', replicas: 1, mode: 'native' }, 'ns', 'h');
    expect(native.spec.containers.map((c) => c.name)).toEqual(['a']);
    expect(native.spec.initContainers?.[1]).toMatchObject({
      name: 'istio-proxy',
      restartPolicy: 'Always',
    });
    expect(native.annotations['sidecar.istio.io/nativeSidecar']).toBe('true');
  });

  it('matches the injected proxy shape of the real fixture (args, probe port, prom port)', () => {
    const fixture = readFixture('pods', 'injected_pod.yaml');
    const tpl = podTemplate({ name: 'a', replicas: 1, mode: 'native' }, 'ns', 'h');
    const proxy = tpl.spec.initContainers?.[1];
    for (const arg of proxy?.args ?? [])
      expect(fixture).toContain(`- ${arg.startsWith('$') ? arg : arg}`);
    expect(fixture).toContain('name: http-envoy-prom');
    expect(proxy?.ports?.[0]).toMatchObject({ name: 'http-envoy-prom', containerPort: 15090 });
    expect(proxy?.readinessProbe?.httpGet).toMatchObject({ path: '/healthz/ready', port: 15021 });
    for (const env of [
      'PILOT_CERT_PROVIDER',
      'ISTIO_META_APP_CONTAINERS',
      'ISTIO_META_WORKLOAD_NAME',
    ]) {
      expect(fixture).toContain(`name: ${env}`);
      expect(proxy?.env?.some((e) => e.name === env)).toBe(true);
    }
  });

  it('rewrites HTTP probes unless opted out', () => {
    const rw = podTemplate(
      { name: 'web', replicas: 1, httpProbe: { path: '/readyz', port: 8080 } },
      'ns',
      'h',
    );
    expect(rw.spec.containers[0]?.readinessProbe?.httpGet).toMatchObject({
      path: '/app-health/web/readyz',
      port: 15020,
    });
    const probers =
      rw.spec.containers[1]?.env?.find((e) => e.name === 'ISTIO_KUBE_APP_PROBERS')?.value ?? '{}';
    expect(JSON.parse(probers)).toEqual({
      '/app-health/web/readyz': {
        httpGet: { path: '/readyz', port: 8080, scheme: 'HTTP' },
        timeoutSeconds: 1,
      },
    });
    const out = podTemplate(
      {
        name: 'web',
        replicas: 1,
        httpProbe: { path: '/readyz', port: 8080 },
        rewriteProbes: false,
      },
      'ns',
      'h',
    );
    expect(out.spec.containers[0]?.readinessProbe?.httpGet).toMatchObject({
      path: '/readyz',
      port: 8080,
    });
  });
});

describe('planStart + podStatusAt', () => {
  it('classic race: app starts before the proxy is ready, crashes once with exit 1, restarts', () => {
    const tpl = podTemplate({ name: 'app', replicas: 1 }, 'ns', 'h');
    const plan = planStart(tpl, 'p', 'ns', node, '10.40.0.9', ids(), {
      t0: T,
      proxyReadyMs: 3000,
      race: true,
    });
    const app = plan.containers[0];
    const proxy = plan.containers[1];
    expect(app?.startAt).toBeLessThan(proxy?.readyAt ?? 0);
    const during = podStatusAt(plan, (app?.crash?.at ?? 0) + 10);
    expect(during.containerStatuses?.[0]?.state?.waiting?.reason).toBe('CrashLoopBackOff');
    const later = podStatusAt(plan, T + 60_000);
    const s = later.containerStatuses?.[0];
    expect(s?.restartCount).toBe(1);
    expect(s?.lastState?.terminated?.exitCode).toBe(1);
    expect(s?.ready).toBe(true);
    expect(later.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    expect(later.podIP).toBe('10.40.0.9');
    const reasons = eventsOf(plan).map((e) => e.reason);
    expect(reasons).toContain('BackOff');
    expect(reasons.filter((r) => r === 'Unhealthy').length).toBeGreaterThan(0);
  });

  it('hold: the app starts only after the proxy is ready; Ready flips when the last container is ready', () => {
    const tpl = podTemplate({ name: 'app', replicas: 1, mode: 'hold-annotation' }, 'ns', 'h');
    const plan = planStart(tpl, 'p', 'ns', node, '10.40.0.9', ids(), {
      t0: T,
      proxyReadyMs: 3000,
      race: true,
    });
    const [proxy, app] = plan.containers;
    expect(app?.startAt).toBeGreaterThan(proxy?.readyAt ?? Infinity);
    expect(app?.crash).toBeUndefined();
    const before = podStatusAt(plan, (app?.readyAt ?? 0) - 1);
    expect(before.conditions?.find((c) => c.type === 'Ready')?.status).toBe('False');
    const after = podStatusAt(plan, (app?.readyAt ?? 0) + 5000);
    const ready = after.conditions?.find((c) => c.type === 'Ready');
    expect(ready?.status).toBe('True');
    expect(ready?.lastTransitionTime).toBe(
      new Date(Math.floor((app?.readyAt ?? 0) / 1000) * 1000).toISOString().replace('.000Z', 'Z'),
    );
  });

  it('termination: drain shorter than preStop means the proxy exits first; grace exceeded kills with 137', () => {
    const tpl = podTemplate(
      { name: 'app', replicas: 1, preStopSleep: 20, terminationGracePeriodSeconds: 60 },
      'ns',
      'h',
    );
    const plan = planStart(tpl, 'p', 'ns', node, '10.40.0.9', ids(), {
      t0: T,
      proxyReadyMs: 2000,
      race: false,
    });
    const stop = planStop(plan, T + 100_000, {
      drainMs: 5000,
      preStopMs: 20_000,
      exitOnZeroConnections: false,
    });
    const [app, proxy] = stop.containers;
    expect(proxy?.exitAt).toBe(T + 105_000);
    expect(app?.exitAt).toBe(T + 120_400);
    expect(stop.removeAt).toBe(T + 120_900);
    const st = podStatusAt(stop, T + 110_000);
    expect(st.containerStatuses?.[1]?.state?.terminated?.exitCode).toBe(0);
    expect(st.containerStatuses?.[0]?.state?.running).toBeDefined();
    const over = planStop({ ...plan, grace: 30 }, T + 100_000, {
      drainMs: 5000,
      preStopMs: 45_000,
      exitOnZeroConnections: false,
    });
    expect(over.containers[0]?.exitCode).toBe(137);
    expect(over.preStopFailed).toBe('app');
    expect(over.containers[0]?.exitAt).toBe(T + 130_000);
    expect(eventsOf(over).some((e) => e.reason === 'FailedPreStopHook')).toBe(true);
  });

  it('parseDuration reads Go durations and refuses junk', () => {
    expect(parseDuration('5s')).toBe(5000);
    expect(parseDuration('1m30s')).toBe(90_000);
    expect(parseDuration('250ms')).toBe(250);
    expect(parseDuration('5 seconds')).toBeUndefined();
    expect(parseDuration(5)).toBeUndefined();
  });
});

describe('imageIdOf', () => {
  it('gives every pod of an image the same digest reference, as a runtime does', () => {
    const a = imageIdOf('docker.io/istio/proxyv2:1.24.2');
    expect(a).toMatch(/^docker\.io\/istio\/proxyv2@sha256:[0-9a-f]{64}$/);
    expect(imageIdOf('docker.io/istio/proxyv2:1.24.2')).toBe(a);
    expect(imageIdOf('docker.io/istio/proxyv2:1.24.3')).not.toBe(a);
    expect(imageIdOf('registry.local:5000/shop/cart:v2')).toMatch(
      /^registry\.local:5000\/shop\/cart@sha256:[0-9a-f]{64}$/,
    );
    expect(imageIdOf('registry.local:5000/shop/cart')).toMatch(
      /^registry\.local:5000\/shop\/cart@/,
    );
    const pinned = `docker.io/library/busybox@sha256:${'ab'.repeat(32)}`;
    expect(imageIdOf(pinned)).toBe(pinned);
  });
});
