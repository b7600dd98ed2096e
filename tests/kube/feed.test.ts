import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pod } from '../../lib/kube/types';
import { WatchFeed } from '../../server/kube/feed';
import type { ObservedEvent } from '../../server/kube/listwatch';
import { CORE } from '../../server/kube/resources';
import { KubeTransport } from '../../server/kube/transport';
import { startSimulator } from '../../server/sim/index';
import { ADAPTER_POD, adapterScenario } from './scenario';
import { EVENT_WAIT_GUARD_MS } from '../../test-support/deadlines';

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

const watchesOfPods = async () =>
  ((await (await fetch(`${sim.url}/_sim/info`)).json()) as { requests: Record<string, number> })
    .requests['watch pods'] ?? 0;

describe('one watch feeds every consumer', () => {
  it('delivers each event to every consumer through one list and one watch', async () => {
    const before = await watchesOfPods();
    const feed = new WatchFeed<Pod>(t, kc, CORE.pods);
    const a: ObservedEvent<Pod>[] = [];
    const b: ObservedEvent<Pod>[] = [];
    feed.subscribe({ onEvent: (e) => a.push(e) });
    feed.subscribe({ onEvent: (e) => b.push(e) });
    await feed.whenListed();
    expect(a.length).toBeGreaterThan(0);
    expect(b.map((e) => e.object.metadata.name)).toEqual(a.map((e) => e.object.metadata.name));
    // a consumer that joins late hears the current objects as a list first
    const late: ObservedEvent<Pod>[] = [];
    let listed = false;
    feed.subscribe({ onEvent: (e) => late.push(e), onListed: () => (listed = true) });
    expect(listed).toBe(true);
    expect(late.every((e) => e.via === 'list')).toBe(true);
    expect(late.map((e) => e.object.metadata.name).sort()).toEqual(
      feed
        .snapshot()
        .map((p) => p.metadata.name)
        .sort(),
    );
    await expect.poll(watchesOfPods).toBe(before + 1);
    feed.stop();
  });

  it('a consumer that throws does not starve the others', async () => {
    const feed = new WatchFeed<Pod>(t, kc, CORE.pods);
    const seen: string[] = [];
    feed.subscribe({
      onEvent: () => {
        throw new Error('bug in one consumer');
      },
    });
    feed.subscribe({ onEvent: (e) => seen.push(e.object.metadata.name) });
    await feed.whenListed();
    expect(seen).toContain(ADAPTER_POD);
    expect(feed.currentStatus.lastConsumerError).toMatch(
      /a consumer failed on ADDED: bug in one consumer/,
    );
    expect(feed.currentStatus.consumerErrors).toBe(seen.length);
    feed.stop();
  });

  it('while the first list fails, a reader gets why at once, and the feed keeps trying', async () => {
    const dead = new KubeConfig();
    dead.loadFromString(sim.kubeconfigYaml.replace(/127\.0\.0\.1:\d+/, '127.0.0.1:9'));
    const dt = new KubeTransport(dead);
    const feed = new WatchFeed<Pod>(dt, dead, CORE.pods, { backoffMs: [20, 40] });
    await expect(feed.whenListed()).rejects.toMatchObject({ kind: 'unreachable' });
    await expect
      .poll(() => feed.currentStatus.attempts, { timeout: EVENT_WAIT_GUARD_MS })
      .toBeGreaterThan(2);
    expect(feed.currentStatus.listed).toBe(false);
    expect(feed.currentStatus.lastError).toMatch(/first list failed/);
    feed.stop();
    await expect(feed.whenListed()).rejects.toThrow(/stopped/);
    dt.close();
  });
});
