/**
 * A pod's timeline survives the pod's deletion AND meshdx's restart: simulator + a temp store
 * file; the recorder records a pod that starts (racing its proxy) and is deleted; everything is
 * stopped and closed; a reopened store and a fresh cache still serve the deleted pod's timeline.
 */
import { KubeConfig } from '@kubernetes/client-node';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContainerStatus, Pod } from '../../lib/kube/types';
import { KubeTransport } from '../../server/kube/transport';
import { podTimelineFrom, timelineFleetFrom } from '../../server/screens/timelines/timelines';
import { cacheOn, recorderOn } from '../../test-support/feeds';
import { startSimulator } from '../../server/sim/index';
import { openHistoryStore, type HistoryStore, type Recorder } from '../../server/store';
import { START, recorderScenario, simEvent } from '../store/scenario';
import { EVENT_WAIT_GUARD_MS } from '../../test-support/deadlines';

type Sim = Awaited<ReturnType<typeof startSimulator>>;
let sim: Sim;
let kc: KubeConfig;
let t: KubeTransport;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-tl-restart-'));
const file = path.join(dir, 'meshdx.sqlite');
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const SEC = 1000;
const T0 = START.getTime() + 60 * SEC;

type Cs = 'waiting' | 'running' | 'ready';
function cstatus(name: string, s: Cs, startedAt: number): ContainerStatus {
  return {
    name,
    ready: s === 'ready',
    started: s !== 'waiting',
    restartCount: 0,
    state:
      s === 'waiting'
        ? { waiting: { reason: 'ContainerCreating' } }
        : { running: { startedAt: iso(startedAt) } },
  };
}

/** A classic-sidecar pod: app `web` and istio-proxy in `containers`. */
function pod(app: Cs, proxy: Cs, readyAt?: number): Pod {
  const ready = app === 'ready' && proxy === 'ready';
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'web-1',
      namespace: 'shop',
      ownerReferences: [{ kind: 'ReplicaSet', name: 'web-5f6d7c8b9a', controller: true }],
    },
    spec: {
      nodeName: 'node-a',
      containers: [
        { name: 'web', image: 'web:1' },
        { name: 'istio-proxy', image: 'proxyv2:1.24', args: ['proxy', 'sidecar'] },
      ],
    },
    status: {
      phase: app === 'waiting' ? 'Pending' : 'Running',
      startTime: iso(T0),
      ...(app !== 'waiting' ? { podIP: '10.9.0.7', podIPs: [{ ip: '10.9.0.7' }] } : {}),
      conditions: [
        { type: 'PodScheduled', status: 'True', lastTransitionTime: iso(T0) },
        {
          type: 'ContainersReady',
          status: ready ? 'True' : 'False',
          lastTransitionTime: iso(readyAt ?? T0),
        },
        { type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: iso(readyAt ?? T0) },
      ],
      containerStatuses: [
        cstatus('web', app, T0 + 2 * SEC),
        cstatus('istio-proxy', proxy, T0 + 2 * SEC),
      ],
    },
  };
}

const until = (fn: () => boolean) =>
  expect.poll(fn, { timeout: EVENT_WAIT_GUARD_MS, interval: 20 }).toBe(true);

function record(store: HistoryStore): Recorder {
  return recorderOn(t, kc, store, { now: () => sim.clock.now(), backoffMs: [20, 100] });
}

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

describe('Timelines after a pod is deleted and meshdx restarts', () => {
  let proxyReadyAt = 0;
  let uid = '';

  it('records a racing pod from creation to deletion', async () => {
    const store = openHistoryStore(file, { flushIntervalMs: 10 });
    const recorder = record(store);
    await recorder.ready;
    sim.clock.advance(60 * SEC);
    sim.store.upsert('pods', pod('waiting', 'waiting'));
    await until(() => store.podSnapshot('shop', 'web-1') !== null);
    uid = store.podSnapshot('shop', 'web-1')?.uid ?? '';
    expect(uid).not.toBe('');
    sim.clock.advance(3 * SEC);
    sim.store.upsert('pods', pod('running', 'running'));
    await until(() => store.transitions(uid).some((r) => r.newValue === 'running'));
    sim.clock.advance(4 * SEC);
    proxyReadyAt = sim.clock.now().getTime();
    sim.store.upsert('pods', pod('running', 'ready'));
    await until(() =>
      store
        .transitions(uid)
        .some((r) => r.container === 'istio-proxy' && r.newValue === 'true' && r.field === 'ready'),
    );
    sim.clock.advance(1 * SEC);
    sim.store.upsert('pods', pod('ready', 'ready', sim.clock.now().getTime()));
    sim.store.upsert('events', simEvent(sim.store, 'web-1', 'Started', 1, sim.clock.now()));
    await until(() => store.eventsFor(uid).length === 1);
    sim.clock.advance(30 * SEC);
    sim.store.remove('pods', 'shop', 'web-1');
    await until(() => store.podSnapshot('shop', 'web-1')?.deletedAt !== null);
    recorder.stop();
    store.close();
  });

  it('serves the deleted pod with its transitions from a reopened store and a fresh cache', async () => {
    const store = openHistoryStore(file, { flushIntervalMs: 10 });
    const h = cacheOn(t, kc, store);
    try {
      await h.recorder.ready;
      const src = { ...h.source, file };
      const fleet = await timelineFleetFrom(h.cache, src, sim.clock.now());
      expect(fleet.cache.history).toBe('store');
      expect(fleet.cache.historyNote).toBeNull();
      // the fresh cache holds live pods only: only the store knows web-1
      expect(h.cache.findLive('shop', 'web-1')).toBeNull();
      const row = fleet.rows.find((r) => r.name === 'web-1');
      expect(row).toMatchObject({ deleted: true, phase: 'Deleted', mode: 'classic', uid });
      expect(row?.proxyReadySource).toBe('transition');
      expect(row?.verdicts).toContain('race');
      // app started at T0+2s, the proxy was seen ready when the clock said proxyReadyAt
      expect(row?.gapMs).toBe(T0 + 2 * SEC - proxyReadyAt);
      expect(fleet.cache.deletedPods).toBe(1);

      const view = await podTimelineFrom(h.cache, src, 'shop', 'web-1');
      expect(view.deleted).toBe(true);
      expect(view.proxyReady.at).toBe(new Date(proxyReadyAt).toISOString());
      expect(view.proxyReady.confidence).toBe('high');
      expect(view.inputs.transitions).toBeGreaterThanOrEqual(4);
      expect(view.inputs.events).toBe(1);
      expect(view.gantt.rows.map((r) => r.container).sort()).toEqual(['istio-proxy', 'web']);
    } finally {
      h.stop();
      store.close();
    }
  });

  it('says so when the history is in memory: a fresh in-memory store has no deleted pod', async () => {
    const h = cacheOn(t, kc);
    try {
      const src = {
        ...h.source,
        storeNote: 'history store /data/x.sqlite could not be opened (disk full): kept in memory',
      };
      const fleet = await timelineFleetFrom(h.cache, src, sim.clock.now());
      expect(fleet.cache.history).toBe('memory');
      expect(fleet.cache.historyNote).toMatch(/disk full/);
      expect(fleet.rows.find((r) => r.name === 'web-1')).toBeUndefined();
      await expect(podTimelineFrom(h.cache, src, 'shop', 'web-1')).rejects.toMatchObject({
        status: 404,
      });
    } finally {
      h.stop();
      h.store.close();
    }
  });
});
