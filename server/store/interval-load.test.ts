import { describe, it, expect } from 'vitest';
import { intervalTableFromRows } from './interval-load';
import { openHistoryStore } from './history-store';
import { makePod, observed, T0, MIN } from './test-pods';

const IP = '10.1.0.7';

describe('intervalTableFromRows', () => {
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
      from,
      'event',
      null,
      null,
      null,
      0,
      null,
      JSON.stringify(['ns', `pod-${key}`, null, 'ReplicaSet', 'rs-1', 'node-1']),
    ];
    const { table, skipped } = intervalTableFromRows([
      row('k3', 200),
      row('k2', 100),
      row('k1', 100),
      row('bad', 'not a number'),
      row('bad2', 5, null),
      [IP],
    ]);
    expect(table.size).toBe(3);
    expect(skipped).toBe(3);
    const list = table.history(IP);
    expect(list.map((i) => i.name)).toEqual(['pod-k1', 'pod-k2', 'pod-k3']);
    expect(list[0]?.owner).toBe(list[2]?.owner);
    expect(list[0]?.owner).toEqual({ kind: 'ReplicaSet', name: 'rs-1' });
    expect(list[1]?.fromSource).toBe('event');
    expect(list[1]?.goneUncertain).toBe(false);
    expect(list[1]?.uid).toBeNull();
  });

  it('reads a damaged identity as an unnamed pod instead of failing the whole load', () => {
    const { table } = intervalTableFromRows([
      [IP, 100, 'startTime', null, null, null, 0, null, '{'],
    ]);
    expect(table.history(IP)).toMatchObject([{ name: '', namespace: '', fromSource: 'startTime' }]);
  });

  it('orders a long run of holders of one IP (hundreds of reuses) like the ordered query', () => {
    const store = openHistoryStore(':memory:', { flushIntervalMs: 0 });
    for (let k = 0; k < 120; k++) {
      // starts out of order, with ties every third pod
      const start = T0 + ((k * 37) % 120) * MIN - (k % 3 === 0 ? 0 : 1);
      store.recordPodEvent(observed('ADDED', makePod({ name: `p${k}`, ip: IP, start }), start));
    }
    expect(store.loadHistory().history(IP)).toEqual(store.intervalsForIp(IP));
    store.close();
  });
});
