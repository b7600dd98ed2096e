import { describe, expect, it } from 'vitest';
import type { Pod } from '../../lib/kube/types';
import { diffPod } from '../../lib/timeline/watch';
import { openHistoryStore } from './history-store';
import type { ClusterCache } from '../cache/cluster-cache';
import { StorePodHistory } from './pod-history';
import { makeEvent, makePod, MIN, observed, SEC, T0 } from '../../tests/data/store/pods';

/** The live pods a cache would hold, kept by hand. */
function livePods(): Pick<ClusterCache, 'livePods' | 'findLive'> & {
  set(p: Pod): void;
  drop(name: string): void;
} {
  const live = new Map<string, Pod>();
  return {
    livePods: () => [...live.values()],
    findLive: (ns, name) => {
      const p = live.get(name);
      return p && p.metadata.namespace === ns ? p : null;
    },
    set: (p) => live.set(p.metadata.name, p),
    drop: (name) => live.delete(name),
  };
}

function setup() {
  // a long flush interval: nothing is committed by the timer while a test runs
  const store = openHistoryStore(':memory:', { flushIntervalMs: 60_000 });
  const live = livePods();
  let now = T0 + 10 * MIN;
  const history = new StorePodHistory(live, store, { now: () => new Date(now) });
  return { store, live, history, later: (ms: number) => (now += ms) };
}

describe('StorePodHistory', () => {
  it('answers for a pod the moment it was recorded, without waiting for the batch', () => {
    const { store, live, history } = setup();
    const a = makePod({ name: 'a', ip: '10.0.0.1', rv: 1 });
    store.recordPodEvent(observed('ADDED', a, T0, 'list'));
    live.set(a);
    const b = makePod({ name: 'a', ip: '10.0.0.1', rv: 2, ready: false });
    store.recordPodEvent(observed('MODIFIED', b, T0 + 5 * SEC));
    live.set(b);
    expect(store.pending).toBeGreaterThan(0);
    const ready = history.transitions(b).filter((t) => t.field === 'ready');
    expect(ready.map((t) => [t.container, t.value, t.timeSource])).toEqual([
      ['app', false, 'observed'],
      ['istio-proxy', false, 'observed'],
    ]);
    store.close();
  });

  it('gives a listed, unchanged pod the transitions its own object tells', () => {
    const { store, live, history } = setup();
    const a = makePod({ name: 'a', ip: '10.0.0.1' });
    store.recordPodEvent(observed('ADDED', a, T0, 'list'));
    live.set(a);
    expect(history.transitions(a)).toEqual(diffPod(undefined, a));
    expect(history.transitions(a).some((t) => t.field === 'startedAt')).toBe(true);
    store.close();
  });

  it('keeps a deleted pod, found by name, with its events; the cache holds it no more', () => {
    const { store, live, history, later } = setup();
    const a = makePod({ name: 'a', ip: '10.0.0.1' });
    store.recordPodEvent(observed('ADDED', a, T0, 'list'));
    live.set(a);
    store.recordKubeEvent(
      observed('ADDED', makeEvent({ uid: 'e1', pod: 'a', reason: 'Started', last: T0 }), T0),
    );
    const rev = history.revision(a);
    expect(history.livePods()).toHaveLength(1);

    const gone = makePod({ name: 'a', ip: '10.0.0.1', deletionAt: T0 + MIN, rv: 3 });
    store.recordPodEvent(observed('DELETED', gone, T0 + 2 * MIN));
    live.drop('a');
    later(SEC);
    expect(history.livePods()).toEqual([]);
    expect(history.deletedPods().map((d) => [d.pod.metadata.name, d.deletedAt])).toEqual([
      ['a', new Date(T0 + 2 * MIN).toISOString()],
    ]);
    const found = history.findPod('shop', 'a');
    expect(found?.deleted?.uncertain).toBe(false);
    expect(found?.pod.metadata.deletionTimestamp).toBeDefined();
    expect(history.eventsFor(found!.pod).map((e) => e.reason)).toEqual(['Started']);
    expect(history.revision(found!.pod)).toBeGreaterThanOrEqual(rev);
    expect(history.findPod('shop', 'never')).toBeNull();
    store.close();
  });

  it('leaves out of the live list a pod the store saw deleted before the cache heard of it', () => {
    const { store, live, history } = setup();
    const a = makePod({ name: 'a', ip: '10.0.0.1' });
    store.recordPodEvent(observed('ADDED', a, T0, 'list'));
    store.recordPodEvent(observed('DELETED', a, T0 + MIN));
    live.set(a);
    expect(history.livePods()).toEqual([]);
    expect(history.findPod('shop', 'a')?.deleted).not.toBeNull();
    store.close();
  });
});
