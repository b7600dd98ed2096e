import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Pod } from '../../lib/kube/types';
import { startSimulator } from '../../server/sim/index';
import { KubeTransport } from '../../server/kube/transport';
import { openHistoryStore, type HistoryStore } from '../../server/store/history-store';
import type { Recorder } from '../../server/store/recorder';
import { recorderOn } from '../../test-support/feeds';
import { START, recorderScenario, simEvent, simPod } from './scenario';
import { EVENT_WAIT_GUARD_MS } from '../../test-support/deadlines';

type Sim = Awaited<ReturnType<typeof startSimulator>>;
let sim: Sim;
let kc: KubeConfig;
let t: KubeTransport;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-recorder-'));
const file = path.join(dir, 'store', 'meshdx.sqlite');

beforeAll(async () => {
  sim = await startSimulator({
    scenario: 'store-recorder-test',
    port: 0,
    clock: { fixed: START },
    scenarioImpl: recorderScenario,
  });
  kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfigYaml);
  t = new KubeTransport(kc);
});

afterAll(async () => {
  t?.close();
  await sim?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const SEC = 1000;
const at = (ms: number) => new Date(START.getTime() + ms);
const now = () => sim.clock.now().getTime();
const uidOf = (name: string) => sim.store.get<Pod>('pods', 'shop', name)?.metadata.uid as string;
const until = (fn: () => boolean) =>
  expect.poll(fn, { timeout: EVENT_WAIT_GUARD_MS, interval: 20 }).toBe(true);

function open(): { store: HistoryStore; recorder: Recorder } {
  const store = openHistoryStore(file, { flushIntervalMs: 10 });
  const recorder = recorderOn(t, kc, store, {
    now: () => sim.clock.now(),
    backoffMs: [20, 100],
  });
  return { store, recorder };
}

describe('the recorder against the simulator', () => {
  let store: HistoryStore;
  let recorder: Recorder;
  const p1Uid = () => store.podSnapshot('shop', 'payments-1')?.uid as string;

  it('records the first list: intervals, snapshots and events', async () => {
    ({ store, recorder } = open());
    await recorder.ready;
    const [p1] = store.history('10.9.0.1');
    expect(p1).toMatchObject({
      name: 'payments-1',
      uid: uidOf('payments-1'),
      from: START.getTime() - 3_600_000,
      fromSource: 'startTime',
      goneAt: null,
      lastSeenAt: START.getTime(),
      owner: { kind: 'ReplicaSet', name: 'payments-7d4b9c8f6d' },
    });
    await until(() => store.eventsFor(uidOf('payments-1')).length === 1);
    expect(store.eventsFor(uidOf('payments-1'))[0]).toMatchObject({ reason: 'Started', count: 1 });
    expect(recorder.status()).toMatchObject({
      closedAtStart: 0,
      pods: { listed: true, state: 'watching' },
    });
  });

  it('records a new pod getting its IP, a deletion, and the IP reused', async () => {
    sim.clock.advance(60 * SEC);
    sim.store.upsert('pods', simPod('payments-2', { start: at(60 * SEC) }));
    await until(() => store.podSnapshot('shop', 'payments-2') !== null);
    sim.clock.advance(5 * SEC);
    const gotIp = now();
    sim.store.upsert('pods', simPod('payments-2', { ip: '10.9.0.2', start: at(60 * SEC) }));
    await until(() => store.history('10.9.0.2').length === 1);

    sim.clock.advance(10 * SEC);
    const deleteAt = now();
    sim.store.upsert(
      'pods',
      simPod('payments-1', {
        ip: '10.9.0.1',
        start: at(-3_600_000),
        deletionTimestamp: at(75 * SEC + 30 * SEC),
      }),
    );
    sim.store.upsert('events', simEvent(sim.store, 'payments-1', 'Killing', 1, sim.clock.now()));
    await until(() => store.history('10.9.0.1')[0]?.deletionStartedAt === deleteAt);
    sim.clock.advance(31 * SEC);
    const goneAt = now();
    sim.store.remove('pods', 'shop', 'payments-1');
    await until(() => store.history('10.9.0.1')[0]?.goneAt !== null);
    sim.clock.advance(10 * SEC);
    sim.store.upsert('pods', simPod('payments-3', { ip: '10.9.0.1', start: sim.clock.now() }));
    await until(() => store.history('10.9.0.1').length === 2);

    expect(store.history('10.9.0.2')).toEqual([
      expect.objectContaining({
        name: 'payments-2',
        from: gotIp,
        fromSource: 'event',
        goneAt: null,
      }),
    ]);
    const [old, reused] = store.history('10.9.0.1');
    expect(old).toMatchObject({
      name: 'payments-1',
      deletionStartedAt: deleteAt,
      graceEndsAt: deleteAt + 30 * SEC,
      goneAt,
      goneUncertain: false,
    });
    expect(reused).toMatchObject({ name: 'payments-3', from: goneAt + 10 * SEC });
    expect(store.loadHistory().at('10.9.0.1', goneAt + 2 * SEC)).toMatchObject({
      state: 'terminated',
      holder: { name: 'payments-1' },
    });

    const ready = store
      .transitions(uidOf('payments-2'))
      .filter((x) => x.field === 'ready' || x.field === 'condition:Ready');
    expect(ready.map((x) => [x.container, x.oldValue, x.newValue, x.observedAt, x.via])).toEqual([
      [null, null, 'False', gotIp - 5 * SEC, 'watch'],
      ['payments', null, 'false', gotIp - 5 * SEC, 'watch'],
      ['istio-proxy', null, 'false', gotIp - 5 * SEC, 'watch'],
      [null, 'False', 'True', gotIp, 'watch'],
      ['payments', 'false', 'true', gotIp, 'watch'],
      ['istio-proxy', 'false', 'true', gotIp, 'watch'],
    ]);
    expect(store.podSnapshot('shop', 'payments-1')).toMatchObject({
      deletedAt: goneAt,
      deletedUncertain: false,
    });
    await until(() => store.eventsFor(p1Uid()).length === 2);
    expect(store.eventsFor(p1Uid()).map((e) => e.reason)).toEqual(['Started', 'Killing']);
  });

  it('loses nothing while every watch is being dropped', async () => {
    sim.faults.dropWatchesAfterMs = 1;
    await new Promise((r) => setTimeout(r, 80));
    sim.clock.advance(5 * SEC);
    const removedAt = now();
    sim.store.remove('pods', 'shop', 'payments-2');
    for (let n = 0; n < 20; n++)
      sim.store.upsert('pods', simPod(`burst-${n}`, { ip: `10.9.1.${n}`, start: sim.clock.now() }));
    await new Promise((r) => setTimeout(r, 80));
    sim.faults.dropWatchesAfterMs = 0;
    await until(() => store.podSnapshot('shop', 'payments-2')?.deletedAt !== null);
    await until(
      () => [...store.intervals()].filter((i) => i.name.startsWith('burst-')).length === 20,
    );
    const p2 = store.history('10.9.0.2')[0];
    // seen on a resumed watch (exact time) or on a relist (uncertain, at most the relist time)
    expect(p2?.goneAt).toBeGreaterThanOrEqual(removedAt);
    expect(store.integrityCheck()).toBe('ok');
  });

  it('after a restart: no duplicates, and pods deleted while down are closed as uncertain', async () => {
    recorder.stop();
    const before = [...store.intervals()];
    store.close();
    sim.clock.advance(60 * SEC);
    const restartAt = now();
    sim.store.remove('pods', 'shop', 'payments-3');
    ({ store, recorder } = open());
    await recorder.ready;
    expect(recorder.status().closedAtStart).toBe(1);
    const after = [...store.intervals()];
    expect(after).toHaveLength(before.length);
    const p3 = after.find((i) => i.name === 'payments-3');
    const p3Before = before.find((i) => i.name === 'payments-3');
    expect(p3).toEqual({ ...p3Before, goneAt: restartAt, goneUncertain: true });
    const burst = after.find((i) => i.name === 'burst-0');
    expect(burst).toMatchObject({
      from: before.find((i) => i.name === 'burst-0')?.from,
      goneAt: null,
      lastSeenAt: restartAt,
    });
    expect(store.eventsFor(p1Uid())).toHaveLength(2);
    recorder.stop();
    store.close();
  });
});

describe('the recorder without an API server', () => {
  it('keeps retrying the first list, reports why, and stops cleanly', async () => {
    const dead = new KubeConfig();
    dead.loadFromString(sim.kubeconfigYaml.replace(/127\.0\.0\.1:\d+/, '127.0.0.1:9'));
    const dt = new KubeTransport(dead);
    const store = openHistoryStore(':memory:');
    const recorder = recorderOn(dt, dead, store, { backoffMs: [10, 40] });
    await expect
      .poll(() => recorder.status().pods.lastError ?? '', { timeout: EVENT_WAIT_GUARD_MS })
      .toMatch(/first list failed: cannot reach the API server/);
    expect(recorder.status()).toMatchObject({
      closedAtStart: null,
      pods: { listed: false },
      events: { listed: false },
    });
    recorder.stop();
    await recorder.ready;
    expect(store.stats().tables.intervals.rows).toBe(0);
    store.close();
    dt.close();
  });
});
