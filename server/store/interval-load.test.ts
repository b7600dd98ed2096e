import { describe, it, expect } from 'vitest';
import { intervalTableFromText } from './interval-load';
import { openHistoryStore } from './history-store';
import { StoreReader } from './reader';
import { makePod, observed, T0, MIN } from '../../tests/data/store/pods';

const IP = '10.1.0.7';

describe('intervalTableFromText', () => {
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
    expect(index.history(IP)).toEqual(store.history(IP));
    expect(index.history(IP).map((i) => i.name)).toEqual(['a', 'b', 'c']);
    expect(index.history('10.1.0.8')).toEqual(store.history('10.1.0.8'));
    expect(index.at(IP, T0 + 12 * MIN).holder?.name).toBe('b');
    // the store is the same IpHistory, one query per lookup
    for (let t = T0 - MIN; t < T0 + 40 * MIN; t += 47_000) {
      expect(store.at(IP, t)).toEqual(index.at(IP, t));
      expect(store.at(IP, t, 0)).toEqual(index.at(IP, t, 0));
      expect(store.at(IP, t).reason).toBe(index.at(IP, t).reason);
    }
    expect(store.intervals()).toEqual(index.intervals());
    store.close();
  });

  /** Rows written straight into pod_intervals, as a damaged or hand-edited store has them. */
  function rawStore(rows: unknown[][]) {
    const store = openHistoryStore(':memory:', { flushIntervalMs: 0 });
    const insert = store.db.prepare(
      'INSERT INTO pod_intervals (pod_key, ip, namespace, name, uid, owner_kind, owner_name, node, ' +
        '"from", from_source, deletion_started_at, grace_ends_at, gone_at, gone_uncertain, last_seen_at) ' +
        'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    for (const r of rows) insert.run(...r);
    return store;
  }
  // uid null: the pod key is namespace/name
  const row = (key: string, from: unknown, more: Record<string, unknown> = {}) => {
    const v = {
      ip: IP,
      uid: null,
      source: 'event',
      deletion: null,
      grace: null,
      gone: null,
      uncertain: 0,
      seen: null,
      ...more,
    };
    return [
      key,
      v.ip,
      'ns',
      `pod-${key}`,
      v.uid,
      'ReplicaSet',
      'rs-1',
      'node-1',
      from,
      v.source,
      v.deletion,
      v.grace,
      v.gone,
      v.uncertain,
      v.seen,
    ];
  };

  it('sorts by start then pod key, shares owners, and counts rows it cannot use', () => {
    const store = rawStore([
      row('k3', 200),
      row('k2', 100),
      row('k1', 100),
      row('bad', 'not a number'),
      row('bad3', Buffer.from([1, 9, 10])),
      row('bad4', 7, { ip: Buffer.from('10.1.0.7') }),
    ]);
    const { table, skipped } = intervalTableFromText(
      new StoreReader(store.db).intervalTextBatches(2),
    );
    expect(table.size).toBe(3);
    expect(skipped).toBe(3);
    const list = table.history(IP);
    expect(list.map((i) => i.name)).toEqual(['pod-k1', 'pod-k2', 'pod-k3']);
    expect(list[0]?.owner).toBe(list[2]?.owner);
    expect(list[0]?.owner).toEqual({ kind: 'ReplicaSet', name: 'rs-1' });
    expect(list[1]?.fromSource).toBe('event');
    expect(list[1]?.goneUncertain).toBe(false);
    expect(list[1]?.uid).toBeNull();
    store.close();
  });

  it('reads every kind of number a column may hold, and odd texts, as the row query does', () => {
    const store = rawStore([
      // a real start with more digits than 15, negative and huge integers, and a huge real
      row('r1', 1_762_000_000_000.123, {
        deletion: -5,
        grace: 2 ** 60,
        gone: 1_762_000_000_500,
        uncertain: 2,
        seen: 1e21,
        source: 'condition',
      }),
      // an IP with characters JSON escapes, an unknown source, gone_uncertain given as text
      row('r2', 0, { ip: 'we"ird\\ip\t', source: 'guess', uncertain: '0', uid: 'u-2' }),
      // text where a time belongs: no time
      row('r4', 20, { ip: '10.1.0.9', gone: 'soon', seen: 'later' }),
      // a name with a tab and a newline in it
      row('r3', 10, { uid: 'line\nbreak\ttab' }),
    ]);
    const { table, skipped } = intervalTableFromText(
      new StoreReader(store.db).intervalTextBatches(),
    );
    expect(skipped).toBe(0);
    expect(table.history(IP)).toEqual(store.history(IP));
    expect(table.history(IP)).toMatchObject([
      { uid: 'line\nbreak\ttab', from: 10 },
      {
        from: 1_762_000_000_000.123,
        deletionStartedAt: -5,
        graceEndsAt: 2 ** 60,
        goneAt: 1_762_000_000_500,
        goneUncertain: true,
        lastSeenAt: 1e21,
        fromSource: 'condition',
      },
    ]);
    expect(table.history('10.1.0.9')).toMatchObject([{ from: 20, goneAt: null, lastSeenAt: null }]);
    expect(table.history('we"ird\\ip\t')).toEqual(store.history('we"ird\\ip\t'));
    expect(table.history('we"ird\\ip\t')[0]).toMatchObject({
      fromSource: 'creationTimestamp',
      goneUncertain: false, // '0' is stored as 0: the column's affinity
      uid: 'u-2',
    });
    store.close();
  });

  it('reads who held an interval as the row query does, whatever the names hold', () => {
    const names: [string, unknown, unknown, unknown][] = [
      ['quote"and\\backslash', 'u,1]', 'ReplicaSet', 'node "a"'],
      ['comma,and]bracket', null, null, null],
      ['unicode-é😀\u2028', 'u-3', 'Job', 'n'],
      ['null-like', 'null', 'StatefulSet', 'nullnode'],
      [' spaced ', '', '', ''],
    ];
    const store = rawStore(
      names.map(([name, uid, kind, node], k) => {
        const r = row(`n${k}`, 100 + k, { uid });
        r[3] = name;
        r[5] = kind;
        r[7] = node;
        return r;
      }),
    );
    // a number where a text belongs (the row query gives it as it is; the table as no text)
    store.db.prepare("UPDATE pod_intervals SET node = 42 WHERE pod_key = 'n4'").run();
    const { table } = intervalTableFromText(new StoreReader(store.db).intervalTextBatches());
    const want = store
      .history(IP)
      .map((i) => (i.node === (42 as unknown) ? { ...i, node: null } : i));
    expect(table.history(IP)).toEqual(want);
    expect(table.history(IP).map((i) => i.name)).toEqual(names.map((n) => n[0]));
    // the JSON texts of who held a row, read from its text or decoded, are JSON.stringify's
    for (let k = 0; k < table.size; k++) {
      const who = table.identity(k);
      expect(table.keyJson(k)).toEqual([
        JSON.stringify(who.namespace),
        JSON.stringify(who.name),
        JSON.stringify(who.uid),
      ]);
    }
    store.close();
  });

  it('reads a damaged identity as an unnamed pod instead of failing the whole load', () => {
    const { table } = intervalTableFromText(['"10.1.0.7"\t100\t1\t\t\t\t0\t\t{', 'short\tline']);
    expect(table.history(IP)).toMatchObject([{ name: '', namespace: '', fromSource: 'startTime' }]);
  });

  it('orders a long run of holders of one IP (hundreds of reuses) like the ordered query', () => {
    const store = openHistoryStore(':memory:', { flushIntervalMs: 0 });
    for (let k = 0; k < 120; k++) {
      // starts out of order, with ties every third pod
      const start = T0 + ((k * 37) % 120) * MIN - (k % 3 === 0 ? 0 : 1);
      store.recordPodEvent(observed('ADDED', makePod({ name: `p${k}`, ip: IP, start }), start));
    }
    expect(store.loadHistory().history(IP)).toEqual(store.history(IP));
    store.close();
  });
});
