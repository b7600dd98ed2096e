import { describe, expect, it } from 'vitest';
import { createIds, seededRandom } from './ids';
import { NODES } from './nodes';
import { podTemplate } from './podspec';
import { planStart, planStop } from './plan';
import { planInstants, podStatusAt } from './status';
import { eventsOf } from './events';

const T = Date.parse('2026-01-01T00:00:00Z');
const node = NODES[0] ?? { name: 'n', hostIP: '10.0.0.1', podNet: 40 };
const ids = () => createIds(seededRandom('stuck-test'));
const timing = { t0: T, proxyReadyMs: 3000, race: false };

describe('an app image whose first pull failed', () => {
  const tpl = podTemplate({ name: 'a', replicas: 1, appPullRetrySeconds: 10 }, 'ns', 'h');
  const plan = planStart(tpl, 'a-h-x', 'ns', node, '10.0.0.9', ids(), timing);
  const [app, proxy] = plan.containers;

  it('starts istio-proxy meanwhile and the app after the back-off, once the proxy is ready', () => {
    expect(app?.pull).toBeDefined();
    expect(proxy?.startAt).toBeLessThan(app?.startAt ?? 0);
    expect(app?.startAt).toBeGreaterThan(proxy?.readyAt ?? Infinity);
    expect(app?.crash).toBeUndefined();
  });

  it('reports ErrImagePull, then ImagePullBackOff, then running without a restart', () => {
    const reason = (t: number) =>
      podStatusAt(plan, t).containerStatuses?.[0]?.state?.waiting?.reason;
    const pull = app?.pull;
    if (!pull || !app) throw new Error('no pull');
    expect(reason(pull.failedAt)).toBe('ErrImagePull');
    expect(
      podStatusAt(plan, pull.failedAt).containerStatuses?.[0]?.state?.waiting?.message,
    ).toMatch(/connect: connection refused$/);
    expect(reason(pull.backoffAt + 1)).toBe('ImagePullBackOff');
    const later = podStatusAt(plan, app.startAt + 1).containerStatuses?.[0];
    expect(later?.state?.running?.startedAt).toBeDefined();
    expect(later?.restartCount).toBe(0);
    expect(planInstants(plan)).toEqual(expect.arrayContaining([pull.failedAt, pull.backoffAt]));
  });

  it('writes the pull events in order, the successful pull before Created and Started', () => {
    const mine = eventsOf(plan).filter((e) => e.fieldPath === 'spec.containers{a}');
    expect(mine.map((e) => e.reason)).toEqual([
      'Pulling',
      'Failed',
      'Failed',
      'BackOff',
      'Failed',
      'Pulling',
      'Pulled',
      'Created',
      'Started',
    ]);
  });
});

describe('a pod whose ConfigMap volume cannot be mounted', () => {
  const tpl = podTemplate({ name: 'b', replicas: 1, missingConfigMap: 'b-config' }, 'ns', 'h');
  const plan = planStart(tpl, 'b-h-x', 'ns', node, '10.0.0.10', ids(), timing);

  it('mounts the ConfigMap in the spec and never starts a container', () => {
    expect(JSON.stringify(tpl.spec)).toContain(
      '"volumes":[{"name":"config","configMap":{"name":"b-config"}}]',
    );
    const st = podStatusAt(plan, T + 3_600_000);
    expect(st.phase).toBe('Pending');
    expect(st.podIP).toBeUndefined();
    expect(st.containerStatuses?.every((c) => c.state?.waiting?.reason === 'PodInitializing')).toBe(
      true,
    );
    expect(st.initContainerStatuses?.[0]?.state?.waiting?.reason).toBe('PodInitializing');
    expect(st.conditions?.find((c) => c.type === 'PodReadyToStartContainers')?.status).toBe(
      'False',
    );
    expect(planInstants(plan)).toEqual([T]);
  });

  it('reports FailedMount with exponential back-off, and stops at deletion', () => {
    const mounts = eventsOf(plan).filter((e) => e.reason === 'FailedMount');
    expect(mounts[0]?.at).toBe(T + 500);
    expect(mounts[1]?.at).toBe(T + 1500);
    expect(mounts.every((e) => Number.isFinite(e.at))).toBe(true);
    expect(eventsOf(plan).some((e) => e.reason === 'Started')).toBe(false);
    const stopped = planStop(plan, T + 10_000, { drainMs: 5000, exitOnZeroConnections: false });
    expect(stopped.removeAt).toBe(T + 10_500);
    expect(
      eventsOf(stopped)
        .filter((e) => e.reason === 'FailedMount')
        .every((e) => e.at < T + 10_000),
    ).toBe(true);
    expect(eventsOf(stopped).some((e) => e.reason === 'Killing')).toBe(false);
  });
});
