import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ApiException, CoreV1Api, KubeConfig, Watch } from '@kubernetes/client-node';
import { afterAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../server/sim/index';
import { RV_BLOCK } from '../../server/sim/store/rvstate';
import { fakeMesh, START, testScenario } from './world';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-sim-rv-'));
const stateFile = path.join(dir, 'state.json');
const running: RunningSimulator[] = [];
afterAll(async () => {
  await Promise.all(running.map((s) => s.close()));
  fs.rmSync(dir, { recursive: true, force: true });
});

async function start(withState: boolean, waitMs = 3000): Promise<RunningSimulator> {
  const sim = await startSimulator({
    scenario: 'sim-test',
    scenarioImpl: testScenario,
    meshImpl: fakeMesh,
    clock: { fixed: START },
    api: { tooLargeResourceVersionWaitMs: waitMs },
    ...(withState ? { stateFile } : {}),
  });
  running.push(sim);
  return sim;
}

function client(sim: RunningSimulator) {
  const kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfigYaml);
  return { kc, core: kc.makeApiClient(CoreV1Api) };
}

/** The raw lines of a watch, until the server ends it or `max` lines came. */
async function watchLines(sim: RunningSimulator, query: string, max = 1): Promise<string[]> {
  const r = await fetch(`${sim.url}/api/v1/namespaces/shop/configmaps?watch=true&${query}`);
  expect(r.status).toBe(200);
  const out: string[] = [];
  const reader = r.body?.getReader();
  let buf = '';
  while (reader !== undefined && out.length < max) {
    const { done, value } = await reader.read();
    if (done) break;
    buf += Buffer.from(value).toString();
    const parts = buf.split('\n');
    buf = parts.pop() ?? '';
    out.push(...parts.filter((l) => l !== ''));
  }
  await reader?.cancel();
  return out;
}

describe('resourceVersion across a restart with state', () => {
  let saved = 0;
  let oldRv = '';

  it('continues above the saved resourceVersion after a restart', async () => {
    const first = await start(true);
    const { core } = client(first);
    const cm = await core.createNamespacedConfigMap({
      namespace: 'shop',
      body: { metadata: { name: 'before-restart' }, data: { a: '1' } },
    });
    oldRv = cm.metadata?.resourceVersion ?? '';
    expect(Number(oldRv)).toBeGreaterThan(0);
    // while running, the file already reserves a block above what was served (a kill is safe)
    const reserved = (JSON.parse(fs.readFileSync(stateFile, 'utf8')) as { resourceVersion: number })
      .resourceVersion;
    expect(reserved).toBeGreaterThanOrEqual(first.store.resourceVersion() + RV_BLOCK - 100);
    saved = first.store.resourceVersion();
    await first.close();
    expect(JSON.parse(fs.readFileSync(stateFile, 'utf8'))).toEqual({ resourceVersion: saved });

    const second = await start(true);
    const list = await client(second).core.listNamespacedConfigMap({ namespace: 'shop' });
    expect(Number(list.metadata?.resourceVersion)).toBeGreaterThan(saved);
    for (const item of list.items) {
      expect(Number(item.metadata?.resourceVersion)).toBeGreaterThan(saved);
    }
  });

  it('answers a watch from a resourceVersion of before the restart with 410 Gone', async () => {
    const sim = running[running.length - 1];
    if (sim === undefined) throw new Error('no simulator');
    const [line] = await watchLines(sim, `resourceVersion=${oldRv}`);
    expect(JSON.parse(line ?? '{}')).toMatchObject({
      type: 'ERROR',
      object: { kind: 'Status', code: 410, reason: 'Expired' },
    });
  });

  it('starts anywhere without state, and a killed run still restarts above what it served', async () => {
    const fresh = await start(false);
    expect(fresh.store.resourceVersion()).toBeLessThan(saved);
    // a run that is never closed: the reserved block in the file is the floor of the next one
    const killed = await start(true);
    const served = killed.store.resourceVersion();
    const next = await start(true);
    expect(next.store.resourceVersion()).toBeGreaterThan(served);
  });
});

describe('a resourceVersion the store has not reached', () => {
  it('ends a watch with the Too large resource version ERROR event after the wait', async () => {
    const sim = await start(false, 150);
    const future = sim.store.resourceVersion() + 1000;
    const t0 = Date.now();
    const [line] = await watchLines(sim, `resourceVersion=${future}`);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
    expect(JSON.parse(line ?? '{}')).toEqual({
      type: 'ERROR',
      object: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: `Timeout: Too large resource version: ${future}, current: ${sim.store.resourceVersion()}`,
        reason: 'Timeout',
        code: 504,
        details: {
          causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
          retryAfterSeconds: 1,
        },
      },
    });
  });

  it('hands the same Status to client-node: as the watch error, and as a 504 on a list', async () => {
    const sim = await start(false, 150);
    const { kc, core } = client(sim);
    const future = String(sim.store.resourceVersion() + 50);
    const events: { type: string; obj: unknown }[] = [];
    await new Promise<void>((resolve, reject) => {
      new Watch(kc)
        .watch(
          '/api/v1/namespaces/shop/configmaps',
          { resourceVersion: future },
          (type, obj) => events.push({ type, obj }),
          () => resolve(),
        )
        .catch(reject);
    });
    expect(events).toEqual([
      { type: 'ERROR', obj: expect.objectContaining({ code: 504, reason: 'Timeout' }) },
    ]);
    const err = await core
      .listNamespacedConfigMap({
        namespace: 'shop',
        resourceVersion: future,
        resourceVersionMatch: 'NotOlderThan',
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(ApiException);
    expect((err as ApiException<string>).code).toBe(504);
    expect(JSON.parse((err as ApiException<string>).body)).toMatchObject({
      reason: 'Timeout',
      details: { causes: [{ reason: 'ResourceVersionTooLarge' }] },
    });
  });

  it('serves the watch normally when the store reaches the version within the wait', async () => {
    const sim = await start(false, 2000);
    const next = sim.store.resourceVersion() + 1;
    const lines = watchLines(sim, `resourceVersion=${next}`, 1);
    setTimeout(() => {
      sim.store.upsert('configmaps', { metadata: { name: 'late', namespace: 'shop' } });
      sim.store.upsert('configmaps', { metadata: { name: 'later', namespace: 'shop' } });
    }, 50);
    const [line] = await lines;
    const ev = JSON.parse(line ?? '{}') as { type: string; object: { metadata: { name: string } } };
    // changes after `next` (which is the first upsert itself) are streamed
    expect(ev.type).toBe('ADDED');
    expect(ev.object.metadata.name).toBe('later');
  });
});
