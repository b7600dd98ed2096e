import { describe, it, expect } from 'vitest';
import { groupRawIntervals } from './interval-load';
import { openHistoryStore } from './history-store';
import { makePod, observed, T0, MIN } from './test-pods';

const IP = '10.1.0.7';

describe('groupRawIntervals', () => {
  it('gives what the ordered row query gives, per IP, for a store with IP reuse', () => {
    const store = openHistoryStore(':memory:', { flushIntervalMs: 0 });
    // three pods hold IP in turn; a fourth holds another IP
    for (const [k, name] of ['a', 'b', 'c'].entries()) {
      const start = T0 + k * 10 * MIN;
      store.recordPodEvent(observed('ADDED', makePod({ name, ip: IP, start }), start));
      const del = makePod({ name, ip: IP, start, deletionAt: start + 5 * MIN });
      store.recordPodEvent(observed('MODIFIED', del, start + 5 * MIN));
      store.recordPodEvent(observed('DELETED', del, start + 6 * MIN));
    }
    store.recordPodEvent(observed('ADDED', makePod({ name: 'd', ip: '10.1.0.8' }), T0));
    const index = store.loadHistory();
    expect(index.size).toBe(4);
    expect(index.history(IP)).toEqual(store.intervalsForIp(IP));
    expect(index.history(IP).map((i) => i.name)).toEqual(['a', 'b', 'c']);
    expect(index.history('10.1.0.8')).toEqual(store.intervalsForIp('10.1.0.8'));
    expect(index.at(IP, T0 + 12 * MIN).holder?.name).toBe('b');
    store.close();
  });

  it('sorts by start then pod key, shares owners, and counts rows it cannot use', () => {
    // uid null: the pod key is namespace/name
    const row = (key: string, from: unknown, ip: unknown = IP) => [
      ip,
      'ns',
      `pod-${key}`,
      null,
      'ReplicaSet',
      'rs-1',
      'node-1',
      from,
      'event',
      null,
      null,
      null,
      0,
      null,
    ];
    const g = groupRawIntervals([
      row('k3', 200),
      row('k2', 100),
      row('k1', 100),
      row('bad', 'not a number'),
      row('bad2', 5, null),
      [IP],
    ]);
    expect(g.count).toBe(3);
    expect(g.skipped).toBe(3);
    const list = g.byIp.get(IP) ?? [];
    expect(list.map((i) => i.name)).toEqual(['pod-k1', 'pod-k2', 'pod-k3']);
    expect(list[0]?.owner).toBe(list[2]?.owner);
    expect(list[0]?.owner).toEqual({ kind: 'ReplicaSet', name: 'rs-1' });
    expect(list[1]?.fromSource).toBe('event');
    expect(list[1]?.goneUncertain).toBe(false);
  });
});
