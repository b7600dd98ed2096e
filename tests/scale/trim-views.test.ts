import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeEvent, Pod } from '../../lib/kube/types';
import { latestStatusTime } from '../../lib/ledger/observation';
import { ClusterCache } from '../../server/cache/cluster-cache';
import { WatchFeed } from '../../server/kube/feed';
import { listPaged } from '../../server/kube/listwatch';
import { CORE } from '../../server/kube/resources';
import { KubeTransport } from '../../server/kube/transport';
import {
  podTimelineFrom,
  timelineFleetFrom,
  type TimelineSource,
} from '../../server/screens/timelines/timelines';
import { openHistoryStore, startRecorder } from '../../server/store';
import { startSimulator, type RunningSimulator } from '../../server/sim/index';
import { podKey, podKeyOfObject } from '../../lib/refs/pod-ref';

/**
 * The watch feed trims every pod to the fields meshdx reads (lib/kube/trim.ts). Proof that no
 * view lost an input: the same views computed from a cache fed whole objects and from one fed
 * trimmed objects, on the demo scenario (every kind of pod meshdx knows, a Pod without spec
 * included), through the real client against the simulator, are equal.
 */
let sim: RunningSimulator;
let kc: KubeConfig;
let t: KubeTransport;
const NOW = new Date('2026-11-01T12:00:00Z');

beforeAll(async () => {
  sim = await startSimulator({ scenario: 'demo', port: 0, clock: { fixed: NOW } });
  kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfigYaml);
  t = new KubeTransport(kc, { qps: 1000, burst: 1000, proxyConcurrency: 8 });
});

afterAll(async () => {
  t?.close();
  await sim?.close();
});

function cacheWith(trim: 'default' | 'whole'): {
  cache: ClusterCache;
  pods: WatchFeed<Pod>;
  source: TimelineSource;
  stop(): void;
} {
  const now = () => t.clusterNow();
  const keep = trim === 'whole' ? { trim: null } : {};
  const pods = new WatchFeed<Pod>(t, kc, CORE.pods, { floor: latestStatusTime, now, ...keep });
  const events = new WatchFeed<KubeEvent>(t, kc, CORE.events, { now, ...keep });
  const cache = new ClusterCache(t, { pods, events });
  const store = openHistoryStore(':memory:');
  const recorder = startRecorder({ pods, events, store, now });
  return {
    cache,
    pods,
    source: { store },
    stop() {
      recorder.stop();
      cache.stop();
      pods.stop();
      events.stop();
      store.close();
    },
  };
}

const withoutTime = <T extends { generatedAt?: string }>(v: T) => ({ ...v, generatedAt: '' });

describe('the trimmed pod feeds every view the same inputs', () => {
  it('keeps less than the API server sends', async () => {
    const trimmed = cacheWith('default');
    const whole = cacheWith('whole');
    try {
      await Promise.all([trimmed.cache.ready(), whole.cache.ready()]);
      const a = trimmed.cache.livePods();
      const b = whole.cache.livePods();
      expect(a.length).toBe(b.length);
      expect(a.length).toBeGreaterThan(20);
      expect(JSON.stringify(a).length).toBeLessThan(JSON.stringify(b).length);
      // the demo's Pod without spec is still refused, as before the trim
      expect(trimmed.pods.currentStatus.rejected).toBe(whole.pods.currentStatus.rejected);
      expect(trimmed.pods.currentStatus.rejected).toBeGreaterThan(0);
    } finally {
      trimmed.stop();
      whole.stop();
    }
  });

  it('Timelines: the fleet and every pod timeline are equal', async () => {
    const trimmed = cacheWith('default');
    const whole = cacheWith('whole');
    try {
      const [fa, fb] = await Promise.all([
        timelineFleetFrom(trimmed.cache, trimmed.source, NOW),
        timelineFleetFrom(whole.cache, whole.source, NOW),
      ]);
      expect(fa.rows.length).toBeGreaterThan(10);
      expect(withoutTime(fa)).toEqual(withoutTime(fb));
      for (const r of fa.rows) {
        const [pa, pb] = await Promise.all([
          podTimelineFrom(trimmed.cache, trimmed.source, r.namespace, r.name),
          podTimelineFrom(whole.cache, whole.source, r.namespace, r.name),
        ]);
        expect(pa, podKey(r.namespace, r.name)).toEqual(pb);
      }
    } finally {
      trimmed.stop();
      whole.stop();
    }
  });
});

describe('lists in pages', () => {
  const listsOfPods = async () =>
    ((await (await fetch(`${sim.url}/_sim/info`)).json()) as { requests: Record<string, number> })
      .requests['list pods'] ?? 0;

  it('reads every page of limit/continue and gives what one unpaged list gives', async () => {
    const before = await listsOfPods();
    const progress = { pages: 0, objects: 0, remaining: null, startedAt: null };
    const paged = await listPaged<Pod>(t, CORE.pods, { pageSize: 7, progress });
    const pages = (await listsOfPods()) - before;
    const whole = await listPaged<Pod>(t, CORE.pods, { pageSize: 100_000 });
    const names = (l: { items: Pod[] }) => l.items.map((p) => podKeyOfObject(p));
    expect(names(paged)).toEqual(names(whole));
    expect(paged.rejected.length).toBe(whole.rejected.length);
    expect(paged.rejected.length).toBeGreaterThan(0);
    const total = paged.items.length + paged.rejected.length;
    expect(pages).toBe(Math.ceil(total / 7));
    expect(progress.pages).toBe(pages);
    expect(progress.objects).toBe(paged.items.length);
    expect(paged.resourceVersion).toBe(whole.resourceVersion);
  });

  it('a bad page size is refused by the server with its reason', async () => {
    await expect(listPaged<Pod>(t, CORE.pods, { pageSize: -1 })).rejects.toThrow(/limit/);
  });
});
