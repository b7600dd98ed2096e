import { KubeConfig, Watch } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../server/sim/index';
import { fakeMesh, START, testScenario } from './world';
import { EVENT_WAIT_GUARD_MS } from '../../test-support/deadlines';

let sim: RunningSimulator;
let kc: KubeConfig;

beforeAll(async () => {
  sim = await startSimulator({
    scenario: 'sim-test',
    scenarioImpl: testScenario,
    meshImpl: fakeMesh,
    clock: { fixed: START },
    api: { bookmarkIntervalMs: 100 },
  });
  kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfigYaml);
});
afterAll(async () => sim?.close());

describe('Watch', () => {
  type Ev = { type: string; name: string; rv: string; code?: number; reason?: string };
  function watch(path: string, params: Record<string, string | boolean | number>, events: Ev[]) {
    return new Watch(kc).watch(
      path,
      params,
      (
        type,
        obj: {
          metadata?: { name?: string; resourceVersion?: string };
          code?: number;
          reason?: string;
        },
      ) =>
        events.push({
          type,
          name: obj.metadata?.name ?? '',
          rv: obj.metadata?.resourceVersion ?? '',
          code: obj.code,
          reason: obj.reason,
        }),
      () => undefined,
    );
  }

  it('starts with ADDED for current objects, streams changes, resumes from a resourceVersion', async () => {
    const events: Ev[] = [];
    const ctl = await watch('/api/v1/namespaces/shop/pods', { labelSelector: 'app=web' }, events);
    await expect.poll(() => events.length).toBe(2);
    expect(events.map((e) => `${e.type} ${e.name}`).sort()).toEqual(['ADDED web-1', 'ADDED web-2']);
    const before = sim.store.resourceVersion();
    sim.clock.advance(60_000); // the scenario starts web-2
    await expect.poll(() => events.length).toBe(3);
    expect(events[2]).toMatchObject({ type: 'MODIFIED', name: 'web-2', rv: String(before + 1) });
    ctl.abort();

    const resumed: Ev[] = [];
    const ctl2 = await watch(
      '/api/v1/namespaces/shop/pods',
      { labelSelector: 'app=web', resourceVersion: String(before) },
      resumed,
    );
    await expect.poll(() => resumed.length).toBe(1);
    expect(resumed[0]).toMatchObject({ type: 'MODIFIED', name: 'web-2' });
    sim.store.remove('pods', 'shop', 'web-1');
    await expect
      .poll(() => resumed.map((e) => `${e.type} ${e.name}`))
      .toEqual(['MODIFIED web-2', 'DELETED web-1']);
    ctl2.abort();
  });

  it('answers an expired resourceVersion with an ERROR event carrying 410 Expired', async () => {
    const small = await startSimulator({
      scenario: 'sim-test',
      scenarioImpl: testScenario,
      meshImpl: fakeMesh,
      clock: { fixed: START },
      historySize: 5,
    });
    try {
      const k = new KubeConfig();
      k.loadFromString(small.kubeconfigYaml);
      const events: Ev[] = [];
      let ended = false;
      await new Watch(k).watch(
        '/api/v1/pods',
        { resourceVersion: '1' },
        (type, obj: { code?: number; reason?: string }) =>
          events.push({ type, name: '', rv: '', code: obj.code, reason: obj.reason }),
        () => (ended = true),
      );
      await expect.poll(() => ended).toBe(true);
      expect(events).toEqual([{ type: 'ERROR', name: '', rv: '', code: 410, reason: 'Expired' }]);
    } finally {
      await small.close();
    }
  });

  it('sends bookmarks when allowed and ends at timeoutSeconds', async () => {
    const events: Ev[] = [];
    let ended = false;
    await new Watch(kc).watch(
      '/api/v1/namespaces',
      { allowWatchBookmarks: true, timeoutSeconds: 1 },
      (type, obj: { metadata?: { name?: string; resourceVersion?: string } }) =>
        events.push({
          type,
          name: obj.metadata?.name ?? '',
          rv: obj.metadata?.resourceVersion ?? '',
        }),
      () => (ended = true),
    );
    await expect.poll(() => ended, { timeout: EVENT_WAIT_GUARD_MS }).toBe(true);
    expect(events.filter((e) => e.type === 'ADDED').map((e) => e.name)).toEqual([
      'istio-system',
      'kube-system',
      'shop',
    ]);
    const bm = events.filter((e) => e.type === 'BOOKMARK');
    expect(bm.length).toBeGreaterThan(0);
    expect(bm[0]?.rv).toBe(String(sim.store.resourceVersion()));
  });
});
