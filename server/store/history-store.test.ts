import { describe, it, expect, afterAll } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import type { Pod } from '../../lib/kube/types';
import { readFixture } from '../../test-support/fixtures';
import { openHistoryStore, type HistoryStore } from './history-store';
import { MIN, SEC, T0, makeEvent, makePod, observed } from '../../tests/data/store/pods';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-store-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const file = path.join(dir, 'history.sqlite');
const IP = '10.1.0.7';

/** Pod a: watched from Pending to deletion; pod b: a later pod that got a's IP. */
function recordLifecycle(store: HistoryStore): void {
  store.recordPodEvent(observed('ADDED', makePod({ name: 'a' }), T0));
  store.recordPodEvent(observed('MODIFIED', makePod({ name: 'a', ip: IP }), T0 + 5 * SEC));
  const deleting = makePod({ name: 'a', ip: IP, deletionAt: T0 + 10 * MIN });
  store.recordPodEvent(observed('MODIFIED', deleting, T0 + 10 * MIN));
  store.recordPodEvent(observed('DELETED', deleting, T0 + 10 * MIN + 31 * SEC));
  const b = makePod({ name: 'b', ip: IP, start: T0 + 10 * MIN + 50 * SEC });
  store.recordPodEvent(observed('ADDED', b, T0 + 11 * MIN));
  // c got its IP while watched; d is live and will vanish while meshdx is down
  store.recordPodEvent(observed('ADDED', makePod({ name: 'c', start: T0 + MIN }), T0 + MIN));
  const c = makePod({ name: 'c', ip: '10.1.0.9', start: T0 + MIN });
  store.recordPodEvent(observed('MODIFIED', c, T0 + MIN + 3 * SEC));
  store.recordPodEvent(
    observed('ADDED', makePod({ name: 'd', ip: '10.1.0.11' }), T0 + 2 * MIN, 'list'),
  );
  store.recordKubeEvent(
    observed(
      'ADDED',
      makeEvent({ uid: 'e1', pod: 'a', reason: 'Unhealthy', last: T0 + 9 * MIN }),
      T0 + 9 * MIN,
    ),
  );
  store.recordKubeEvent(
    observed(
      'MODIFIED',
      makeEvent({
        uid: 'e1',
        pod: 'a',
        reason: 'Unhealthy',
        count: 2,
        last: T0 + 9 * MIN + 10 * SEC,
      }),
      T0 + 9 * MIN + 10 * SEC,
    ),
  );
  store.recordKubeEvent(
    observed(
      'ADDED',
      makeEvent({
        uid: 'e1',
        pod: 'a',
        reason: 'Unhealthy',
        count: 2,
        last: T0 + 9 * MIN + 10 * SEC,
      }),
      T0 + 12 * MIN,
      'list',
    ),
  );
}

const A_INTERVAL = {
  ip: IP,
  namespace: 'shop',
  name: 'a',
  uid: 'uid-a',
  owner: { kind: 'ReplicaSet', name: 'payments-5d9f' },
  node: 'node-1',
  from: T0 + 5 * SEC,
  fromSource: 'event',
  deletionStartedAt: T0 + 10 * MIN,
  graceEndsAt: T0 + 10 * MIN + 30 * SEC,
  goneAt: T0 + 10 * MIN + 31 * SEC,
  goneUncertain: false,
  lastSeenAt: T0 + 10 * MIN + 31 * SEC,
};
const B_INTERVAL = {
  ...A_INTERVAL,
  name: 'b',
  uid: 'uid-b',
  from: T0 + 10 * MIN + 50 * SEC,
  fromSource: 'startTime',
  deletionStartedAt: null,
  graceEndsAt: null,
  goneAt: null,
  lastSeenAt: T0 + 11 * MIN,
};

describe('HistoryStore on a file', () => {
  it('turns a watched lifecycle and a reused IP into two intervals', () => {
    const store = openHistoryStore(file, { flushIntervalMs: 0 });
    recordLifecycle(store);
    expect(store.history(IP)).toEqual([A_INTERVAL, B_INTERVAL]);
    const history = store.loadHistory();
    expect(history.size).toBe(4);
    expect(history.at(IP, T0 + 10 * MIN + 15 * SEC)).toMatchObject({
      state: 'terminating',
      afterTerminationMs: 15 * SEC,
      holder: { name: 'a' },
    });
    expect(history.at(IP, T0 + 12 * MIN)).toMatchObject({ state: 'live', holder: { name: 'b' } });
    store.close();
  });

  it('records container and condition transitions by diffing versions', () => {
    const store = openHistoryStore(file, { readonly: true });
    const t = store.transitions('uid-a');
    // first sight (watch ADDED): phase, Ready, 2 containers x (ready, started, restartCount, state)
    expect(t.filter((x) => x.observedAt === T0)).toHaveLength(10);
    expect(
      t
        .filter((x) => x.observedAt === T0 + 5 * SEC)
        .map((x) => `${x.container ?? ''}:${x.field}:${x.oldValue}>${x.newValue}`),
    ).toEqual([
      ':phase:Pending>Running',
      ':condition:Ready:False>True',
      'app:ready:false>true',
      'app:started:false>true',
      'app:state:waiting:ContainerCreating>running',
      'istio-proxy:ready:false>true',
      'istio-proxy:started:false>true',
      'istio-proxy:state:waiting:ContainerCreating>running',
    ]);
    expect(t.filter((x) => x.observedAt >= T0 + 10 * MIN)).toEqual([
      {
        container: null,
        field: 'deletionTimestamp',
        oldValue: null,
        newValue: '2024-06-01T10:10:30Z',
        reportedAt: T0 + 10 * MIN + 30 * SEC,
        observedAt: T0 + 10 * MIN,
        via: 'watch',
      },
    ]);
    // d was first seen on a list: its state then is in the snapshot, not a transition
    expect(store.transitions('uid-d')).toEqual([]);
    store.close();
  });

  it("keeps a deleted pod's last state, and its events deduplicated by uid and count", () => {
    const store = openHistoryStore(file, { readonly: true });
    const snap = store.podSnapshotByUid('uid-a');
    expect(snap).toMatchObject({
      name: 'a',
      deletedAt: T0 + 10 * MIN + 31 * SEC,
      deletedUncertain: false,
      firstSeen: T0,
    });
    expect(snap?.object?.metadata.deletionTimestamp).toBe('2024-06-01T10:10:30Z');
    expect(snap?.object?.status?.podIP).toBe(IP);
    expect(store.podSnapshot('shop', 'a')?.podKey).toBe('uid-a');
    expect(store.deletedPods().map((p) => p.name)).toEqual(['a']);
    expect(store.deletedPods(T0 + 11 * MIN)).toEqual([]);
    const events = store.eventsFor('uid-a');
    expect(events.map((e) => [e.reason, e.count, e.lastTimestamp])).toEqual([
      ['Unhealthy', 1, T0 + 9 * MIN],
      ['Unhealthy', 2, T0 + 9 * MIN + 10 * SEC],
    ]);
    expect(events[0]).toMatchObject({
      type: 'Warning',
      fieldPath: 'spec.containers{istio-proxy}',
      source: 'kubelet',
    });
    expect(store.eventsForObject('shop', 'a')).toHaveLength(2);
    store.close();
  });

  it('a restart with the same file: no duplicates, kept starts, vanished pods closed as uncertain', () => {
    const before = openHistoryStore(file, { readonly: true });
    const intervalsBefore = [...before.intervals()];
    const transitionsBefore = before.transitions('uid-b').length;
    before.close();

    const store = openHistoryStore(file, { flushIntervalMs: 0 });
    const live = store.livePodKeys();
    expect([...live].sort()).toEqual(['uid-b', 'uid-c', 'uid-d']);
    const now = T0 + 20 * MIN;
    const b = makePod({ name: 'b', ip: IP, start: T0 + 10 * MIN + 50 * SEC });
    store.recordPodEvent(observed('ADDED', b, now, 'list'));
    store.recordPodEvent(
      observed('ADDED', makePod({ name: 'c', ip: '10.1.0.9', start: T0 + MIN }), now, 'list'),
    );
    expect(store.closeMissing(live, new Set(['uid-b', 'uid-c']), now)).toBe(1);

    const after = [...store.intervals()];
    expect(after).toHaveLength(intervalsBefore.length);
    expect(after.find((i) => i.name === 'b')).toEqual({ ...B_INTERVAL, lastSeenAt: now });
    // c's start was seen on the watch before the restart: the relist's lower bound does not replace it
    expect(after.find((i) => i.name === 'c')).toMatchObject({
      from: T0 + MIN + 3 * SEC,
      fromSource: 'event',
      goneAt: null,
    });
    expect(after.find((i) => i.name === 'd')).toMatchObject({
      goneAt: now,
      goneUncertain: true,
      lastSeenAt: T0 + 2 * MIN,
    });
    expect(store.podSnapshotByUid('uid-d')).toMatchObject({
      deletedAt: now,
      deletedUncertain: true,
    });
    expect(store.transitions('uid-b')).toHaveLength(transitionsBefore);
    expect(store.eventsFor('uid-a')).toHaveLength(2);
    expect(store.integrityCheck()).toBe('ok');
    store.close();
  });

  it('a deletion seen only on a relist closes the interval as uncertain at the relist', () => {
    const store = openHistoryStore(':memory:');
    const e = makePod({ name: 'e', ip: '10.2.0.1' });
    store.recordPodEvent(observed('ADDED', e, T0 + MIN));
    store.recordPodEvent(observed('DELETED', e, T0 + 30 * MIN, 'reconcile'));
    expect(store.history('10.2.0.1')).toEqual([
      expect.objectContaining({
        goneAt: T0 + 30 * MIN,
        goneUncertain: true,
        lastSeenAt: T0 + MIN,
        from: T0,
      }),
    ]);
    store.close();
  });

  it('prunes what ended before the retention window, never live pods', () => {
    const store = openHistoryStore(file, { retentionDays: 1, flushIntervalMs: 0 });
    const r = store.prune(T0 + 86_400_000 + 11 * MIN);
    expect(r).toMatchObject({ intervals: 1, snapshots: 1, events: 2 });
    expect([...store.intervals()].map((i) => i.name).sort()).toEqual(['b', 'c', 'd']);
    expect(store.transitions('uid-a')).toEqual([]);
    expect(store.transitions('uid-b').length).toBeGreaterThan(0); // observed at T0+11min
    expect(store.podSnapshotByUid('uid-a')).toBeNull();
    expect(store.stats().lastPrune?.cutoff).toBe(T0 + 11 * MIN);
    expect(openHistoryStore(':memory:').prune()).toBeNull();
    store.close();
  });
});

describe('HistoryStore batching and bad input', () => {
  it('moves its interval revision when pod IP intervals are committed, not for Kubernetes events', () => {
    const store = openHistoryStore(':memory:');
    const r0 = store.intervalRevision;
    store.recordPodEvent(observed('ADDED', makePod({ name: 'a', ip: IP }), T0));
    store.loadHistory();
    const r1 = store.intervalRevision;
    expect(r1).toBeGreaterThan(r0);
    store.recordKubeEvent(
      observed('ADDED', makeEvent({ uid: 'e9', pod: 'a', reason: 'Pulled', last: T0 }), T0),
    );
    store.flush();
    expect(store.intervalRevision).toBe(r1);
    const deleting = makePod({ name: 'a', ip: IP, deletionAt: T0 + MIN });
    store.recordPodEvent(observed('MODIFIED', deleting, T0 + MIN));
    store.flush();
    expect(store.intervalRevision).toBeGreaterThan(r1);
    store.close();
  });

  it('commits in batches, not per event', () => {
    const commits: (number | null)[] = [];
    const store = openHistoryStore(':memory:', {
      batchSize: 100,
      flushIntervalMs: 0,
      onCommit: (c) => commits.push(c.intervalsTotal),
    });
    for (let n = 0; n < 250; n++) {
      const pod = makePod({ name: `p${n}`, ip: `10.3.${n >> 8}.${n & 255}`, rv: n + 1 });
      store.recordPodEvent(observed('ADDED', pod, T0, 'list'));
    }
    // each pod adds an interval and a snapshot, plus one watch-state row and one spec row per
    // batch (the pods share one spec, stored once): 2n+2 >= 100 at n = 49
    expect(commits).toEqual([49, 98, 147, 196, 245]);
    // reading the stats commits the last five pods first
    expect(store.stats()).toMatchObject({
      commits: 6,
      pending: 0,
      tables: { intervals: { rows: 250 } },
    });
    expect(store.stats().watch).toEqual([
      { resource: 'pods', resourceVersion: '250', state: null, updated: T0 },
    ]);
    store.close();
  });

  it('counts objects that are not pods or events and keeps going', () => {
    const store = openHistoryStore(':memory:');
    store.recordPodEvent(observed('ADDED', { metadata: {} } as unknown as Pod, T0));
    store.recordKubeEvent(observed('ADDED', { metadata: { name: '' } } as never, T0));
    store.recordPodEvent(observed('ADDED', makePod({ name: 'ok', ip: '10.4.0.1' }), T0));
    expect(store.stats().counts).toMatchObject({ podEvents: 2, kubeEvents: 1, invalid: 2 });
    expect(store.errors).toHaveLength(2);
    expect(store.history('10.4.0.1')).toHaveLength(1);
    store.close();
    expect(() => store.recordPodEvent(observed('ADDED', makePod({ name: 'x' }), T0))).toThrow(
      /closed/,
    );
  });

  it('records the real kube-dns pod from a list with its start and owner', () => {
    const pod = parse(readFixture('pods', 'kube-dns_pod_with_status.yaml')) as Pod;
    const store = openHistoryStore(':memory:');
    store.recordPodEvent(observed('ADDED', pod, T0, 'list'));
    const ip = pod.status?.podIP as string;
    expect(store.history(ip)).toEqual([
      expect.objectContaining({
        name: pod.metadata.name,
        uid: pod.metadata.uid,
        from: Date.parse(pod.status?.startTime as string),
        fromSource: 'startTime',
        owner: { kind: 'ReplicaSet', name: pod.metadata.ownerReferences?.[0]?.name },
        node: pod.spec.nodeName ?? null,
        lastSeenAt: T0,
      }),
    ]);
    expect(
      store.podSnapshot('kube-system', pod.metadata.name)?.object?.status?.containerStatuses,
    ).toHaveLength(pod.status?.containerStatuses?.length ?? -1);
    // the spec is kept apart and joined back: the stored pod is the pod (managedFields aside)
    const { managedFields: _drop, ...metadata } = pod.metadata as Pod['metadata'] & {
      managedFields?: unknown;
    };
    expect(store.podSnapshot('kube-system', pod.metadata.name)?.object).toEqual({
      ...pod,
      metadata,
    });
    store.close();
  });

  it("stores a pod's spec once across its status changes, again when an update changes it", () => {
    const pod = parse(readFixture('pods', 'kube-dns_pod_with_status.yaml')) as Pod;
    const store = openHistoryStore(':memory:', { flushIntervalMs: 0, retentionDays: 1 });
    const specs = () => {
      store.flush(); // what is pending first
      return store.db.prepare('SELECT count(*) FROM pod_specs').pluck().get();
    };
    store.recordPodEvent(observed('ADDED', pod, T0, 'list'));
    const notReady = structuredClone(pod);
    notReady.metadata.resourceVersion = '2';
    for (const c of notReady.status?.containerStatuses ?? []) c.ready = false;
    store.recordPodEvent(observed('MODIFIED', notReady, T0 + SEC));
    expect(specs()).toBe(1);
    const newImage = structuredClone(notReady);
    const first = newImage.spec.containers[0];
    if (first) first.image = 'registry.example/kubedns:2.0';
    store.recordPodEvent(observed('MODIFIED', newImage, T0 + 2 * SEC));
    expect(specs()).toBe(2);
    expect(
      store.podSnapshot('kube-system', pod.metadata.name)?.object?.spec.containers[0]?.image,
    ).toBe('registry.example/kubedns:2.0');
    // the pod goes and its snapshot is pruned: its specs go with it
    store.recordPodEvent(observed('DELETED', newImage, T0 + 3 * SEC));
    expect(store.prune(T0 + 2 * 86_400_000)).toMatchObject({ snapshots: 1, specs: 2 });
    expect(specs()).toBe(0);
    store.close();
  });

  it('streams 50,000 intervals', () => {
    const store = openHistoryStore(':memory:', { batchSize: 5000, flushIntervalMs: 0 });
    const insert = store.db.prepare(
      'INSERT INTO pod_intervals (pod_key, ip, namespace, name, "from", from_source) VALUES (?, ?, ?, ?, ?, ?)',
    );
    store.db.transaction(() => {
      for (let n = 0; n < 50_000; n++)
        insert.run(
          `u${n}`,
          `10.${n >> 16}.${(n >> 8) & 255}.${n & 255}`,
          'shop',
          `p${n}`,
          T0 + n,
          'event',
        );
    })();
    let count = 0;
    let prevIp = '';
    for (const i of store.intervals()) {
      expect(i.ip >= prevIp).toBe(true);
      prevIp = i.ip;
      count++;
    }
    expect(count).toBe(50_000);
    store.close();
  });
});
