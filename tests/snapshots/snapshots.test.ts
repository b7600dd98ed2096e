/**
 * Snapshots on the simulator, through meshdx's route handlers as the server makes them: an
 * Incidents window of the phantom-503 story is frozen (POST /api/snapshots), then every pod it
 * names (the client proxies and the upstream pods) is deleted with real kubectl, the clock moves
 * on until they are gone, and the store's raw failure records are pruned: the snapshot id still
 * answers the same bytes.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as incidentsGet } from '../../app/api/incidents/route';
import { GET as healthGet } from '../../app/api/health/route';
import { GET as listGet, POST as freezePost } from '../../app/api/snapshots/route';
import { DELETE as snapDelete, GET as snapGet } from '../../app/api/snapshots/[id]/route';
import { IncidentsViewSchema } from '../../lib/api/incidents';
import type { SnapshotInfo, SnapshotList } from '../../lib/api/snapshots';
import type { Pod } from '../../lib/kube/types';
import type { RequestScope } from '../../server/auth/identity';
import { resetRegistry, runningRuntimes } from '../../server/runtime/registry';
import { deleteSnapshot, freezeView } from '../../server/screens/snapshots/snapshots';
import { startSimulator, type RunningSimulator } from '../../server/sim/index';
import { KUBECTL, requireKubectl } from '../sim/kubectl-harness';
import { parsePodKey, podKey, podKeyOfObject } from '../../lib/refs/pod-ref';
import { EVENT_WAIT_GUARD_MS, CHILD_PROCESS_GUARD_MS } from '../../test-support/deadlines';

requireKubectl('the snapshot test (it deletes the pods a snapshot names with kubectl)');

const exec = promisify(execFile);
const saved = { ...process.env };
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-snapshots-'));
const START = new Date('2026-11-01T12:00:00Z');
const kubeconfig = path.join(dir, 'kubeconfig');
let sim: RunningSimulator;
const BASE = 'http://meshdx.test';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function advance(ms: number): Promise<void> {
  for (let t = 0; t < ms; t += 1000) {
    sim.clock.advance(1000);
    await sleep(10);
  }
}

async function until<T>(what: string, f: () => T | null | undefined): Promise<T> {
  const end = Date.now() + EVENT_WAIT_GUARD_MS;
  for (;;) {
    const v = f();
    if (v !== null && v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

async function kubectl(...args: string[]): Promise<string> {
  const base = ['--kubeconfig', kubeconfig, '--cache-dir', path.join(dir, 'cache')];
  return (await exec(KUBECTL, [...base, ...args], { timeout: CHILD_PROCESS_GUARD_MS })).stdout;
}

const post = (body: string, type = 'application/json') =>
  freezePost(
    new Request(`${BASE}/api/snapshots`, {
      method: 'POST',
      headers: { 'Content-Type': type },
      body,
    }),
  );
const bytesOf = async (id: string) => {
  const res = await snapGet(new Request(`${BASE}/api/snapshots/${id}`), {
    params: Promise.resolve({ id }),
  });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
};

beforeAll(async () => {
  sim = await startSimulator({ scenario: 'phantom-503', port: 0, clock: { fixed: START } });
  fs.writeFileSync(kubeconfig, sim.kubeconfigYaml, { mode: 0o600 });
  process.env = {
    ...saved,
    MESHDX_DB: ':memory:',
    MESHDX_KUBECONFIG: kubeconfig,
    MESHDX_CLOCK: 'objects',
  };
  delete process.env.MESHDX_CONTEXT;
  delete process.env.MESHDX_AUTH;
  resetRegistry();
});

afterAll(async () => {
  resetRegistry();
  process.env = { ...saved };
  await sim?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('snapshots', () => {
  it('answers byte-identical view JSON after the pods it names are deleted', async () => {
    const from = new Date(START.getTime() - 10 * 60_000).toISOString();
    const to = new Date(START.getTime() + 40_000).toISOString();
    const query = `?namespace=shop&from=${from}&to=${to}`;
    await incidentsGet(new Request(`${BASE}/api/incidents${query}`));
    const [rt] = runningRuntimes();
    if (!rt) throw new Error('the route started no runtime');
    await rt.recorder.ready;
    await advance(45_000);
    const live = IncidentsViewSchema.parse(
      await (await incidentsGet(new Request(`${BASE}/api/incidents${query}`))).json(),
    );
    expect(live.totals.shown).toBeGreaterThan(0);

    const res = await post(JSON.stringify({ view: 'incidents', query }));
    expect(res.status, await res.clone().text()).toBe(200);
    const info = (await res.json()) as SnapshotInfo;
    expect(info.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(info.link).toBe(`/snapshots/${info.id}`);
    expect(info.madeBy).toBeNull();
    const before = await bytesOf(info.id);
    const frozen = IncidentsViewSchema.parse(JSON.parse(before.toString('utf8')));
    // the same failures as the view showed (read again or from the store: the same rows)
    expect(frozen.totals.failing).toBe(live.totals.failing);
    expect(frozen.totals.shown).toBe(live.totals.shown);
    expect(frozen.requests).toEqual(live.requests);

    // every pod it names: the client proxies and the upstream pods
    const named = new Set<string>([
      ...frozen.requests.map((r) => r.source),
      ...frozen.pods.flatMap((p) => (p.pod ? [podKey(p.pod.namespace, p.pod.name)] : [])),
    ]);
    const present = (sim.store.list('pods') as Pod[]).map(podKeyOfObject);
    const toDelete = [...named].filter((k) => present.includes(k));
    expect(toDelete.length).toBeGreaterThan(0);
    for (const k of toDelete) {
      const { namespace: ns, name } = parsePodKey(k);
      await kubectl('delete', 'pod', name, '-n', ns, '--wait=false');
    }
    await advance(90_000);
    await until('the named pods to be gone', () => {
      const now = (sim.store.list('pods') as Pod[]).map(podKeyOfObject);
      return toDelete.some((k) => now.includes(k)) ? null : true;
    });
    // and the store's raw records of those failures are gone too
    rt.store.failures.prune(START.getTime() + 400 * 86_400_000);
    expect(rt.store.failures.retention().records).toBe(0);

    const after = await bytesOf(info.id);
    expect(after.equals(before)).toBe(true);

    const list = (await (
      await listGet(new Request(`${BASE}/api/snapshots`))
    ).json()) as SnapshotList;
    expect(list.snapshots.map((s) => s.id)).toContain(info.id);
    expect(list.retention).toMatchObject({ count: 1, maxAgeDays: 90 });
    const health = (await (await healthGet(new Request(`${BASE}/api/health`))).json()) as {
      runtimes: { snapshots: { count: number; oldest: string | null } }[];
    };
    expect(health.runtimes[0]?.snapshots).toMatchObject({ count: 1, oldest: info.frozenAt });
  }, 120_000);

  it('only its maker deletes a snapshot that has one; anyone one without', async () => {
    const as = (user: string): RequestScope => ({
      context: null,
      identity: { mode: 'header', user, groups: [] },
    });
    const alice = await freezeView(as('alice'), { view: 'timelines', query: '' });
    expect(alice.madeBy).toBe('alice');
    expect(() => deleteSnapshot(as('bob'), alice.id)).toThrow(/made by alice; only they/);
    expect(deleteSnapshot(as('alice'), alice.id)).toEqual({ deleted: alice.id });

    const res = await post(JSON.stringify({ view: 'timelines', query: '?namespace=shop' }));
    const anon = (await res.json()) as SnapshotInfo;
    const del = await snapDelete(
      new Request(`${BASE}/api/snapshots/${anon.id}`, { method: 'DELETE' }),
      { params: Promise.resolve({ id: anon.id }) },
    );
    expect(del.status).toBe(200);
    const gone = await snapGet(new Request(`${BASE}/api/snapshots/${anon.id}`), {
      params: Promise.resolve({ id: anon.id }),
    });
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as { error: { code: string } }).error.code).toBe(
      'SNAPSHOT_NOT_FOUND',
    );
  }, 60_000);

  it('names what is wrong with a bad request', async () => {
    const bad = async (res: Response, status: number, message: RegExp) => {
      expect(res.status).toBe(status);
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(message);
    };
    await bad(await post('{"view":"proxies","query":""}'), 400, /^view: view must be one of/);
    await bad(await post('{"view":"incidents","query":"from=1"}'), 400, /^query: .*start with/);
    await bad(await post('not json'), 400, /the body is not JSON/);
    await bad(await post('{}', 'text/plain'), 415, /application\/json/);
    await bad(
      await post(JSON.stringify({ view: 'incidents', query: '?from=1793534400' })),
      400,
      /^from: .*epoch seconds/,
    );
    await bad(
      await snapGet(new Request(`${BASE}/api/snapshots/x`), {
        params: Promise.resolve({ id: 'x' }),
      }),
      400,
      /^id: "x" is not a snapshot id/,
    );
  }, 60_000);
});
