import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse, stringify } from 'yaml';
import { asMeshdx } from '../../server/auth/identity';
import { listPods } from '../../server/kube/resources';
import {
  contexts,
  RECHECK_KUBECONFIG_MS,
  resetRegistry,
  runningRuntimes,
  runtimeFor,
} from '../../server/runtime/registry';
import { storeFileFor } from '../../server/runtime/runtime';
import { startSimulator } from '../../server/sim/index';
import { adapterScenario } from './scenario';

type Sim = Awaited<ReturnType<typeof startSimulator>>;
let sim: Sim;
let dir: string;
const saved = { ...process.env };

beforeAll(async () => {
  sim = await startSimulator({
    scenario: 'adapter-test',
    port: 0,
    clock: { fixed: new Date('2026-01-01T00:00:00Z') },
    scenarioImpl: adapterScenario,
  });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-registry-'));
});

afterEach(() => {
  vi.useRealTimers();
  resetRegistry();
  process.env = { ...saved };
});

afterAll(async () => {
  await sim?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The simulator's kubeconfig with a second context `other` on the same server. */
function twoContexts(file: string): void {
  const kc = parse(sim.kubeconfigYaml) as {
    contexts: { name: string; context: { cluster: string; user: string } }[];
  };
  const first = kc.contexts[0];
  if (!first) throw new Error('no context');
  kc.contexts.push({ name: 'other', context: { ...first.context } });
  fs.writeFileSync(file, stringify(kc));
}

function useKubeconfig(file: string, db = ':memory:'): void {
  process.env.MESHDX_KUBECONFIG = file;
  process.env.MESHDX_DB = db;
  delete process.env.MESHDX_CONTEXT;
  resetRegistry();
}

describe('the runtime registry picks up a corrected kubeconfig without a restart', () => {
  it('stops the old runtime and starts one on the corrected cluster', async () => {
    const file = path.join(dir, 'kubeconfig');
    // first: a server that is not there (an unreachable API server, not a config error)
    fs.writeFileSync(file, sim.kubeconfigYaml.replace(/127\.0\.0\.1:\d+/, '127.0.0.1:9'));
    useKubeconfig(file);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));

    const dead = runtimeFor(asMeshdx(null));
    expect(dead.source.server).toBe('http://127.0.0.1:9');
    await expect(listPods(dead.transport)).rejects.toMatchObject({ kind: 'unreachable' });

    // the SRE fixes the file
    fs.writeFileSync(file, sim.kubeconfigYaml);
    fs.utimesSync(file, new Date(), new Date(Date.now() + 10_000));
    // within the recheck interval the runtime is kept (no stat on every call)
    expect(runtimeFor(asMeshdx(null))).toBe(dead);

    vi.setSystemTime(new Date(Date.now() + RECHECK_KUBECONFIG_MS + 1));
    const fixed = runtimeFor(asMeshdx(null));
    expect(fixed).not.toBe(dead);
    expect(dead.isStopped).toBe(true);
    expect(fixed.source.server).toBe(sim.url);
    vi.useRealTimers();
    // the new runtime's one pod watch records into its store
    await fixed.pods.whenListed();
    await fixed.recorder.ready;
    expect(fixed.recorder.status().pods.listed).toBe(true);
    expect(fixed.recorder.status().pods.events).toBeGreaterThan(0);

    // an unchanged file keeps the same runtime after the next check
    expect(runtimeFor(asMeshdx(null))).toBe(fixed);
  });
});

describe('one runtime per context', () => {
  it('lists the contexts, starts a runtime per context on first use, refuses unknown names', () => {
    const file = path.join(dir, 'two-contexts');
    twoContexts(file);
    useKubeconfig(file);
    const list = contexts();
    const names = list.contexts.map((c) => c.name);
    expect(names).toHaveLength(2);
    expect(names).toContain('other');
    expect(list.contexts.find((c) => c.current)?.name).toBe(list.default);
    expect(list.contexts.every((c) => c.server === sim.url)).toBe(true);

    const a = runtimeFor(asMeshdx(null));
    const b = runtimeFor(asMeshdx('other'));
    expect(b).not.toBe(a);
    expect(b.context).toBe('other');
    expect(runtimeFor(asMeshdx('other'))).toBe(b);
    expect(runningRuntimes()).toHaveLength(2);
    expect(contexts().contexts.every((c) => c.running)).toBe(true);

    let err: unknown;
    try {
      runtimeFor(asMeshdx('prod-nowhere'));
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ name: 'UnknownContextError', context: 'prod-nowhere' });
    expect((err as { known: string[] }).known.sort()).toEqual([...names].sort());
  });

  it('gives each context its own history store file', () => {
    expect(storeFileFor('data', 'kind-prod', true)).toBe(path.join('data', 'kind-prod.sqlite'));
    expect(storeFileFor('/var/lib/meshdx/meshdx.sqlite', 'a', true)).toBe(
      '/var/lib/meshdx/meshdx.sqlite',
    );
    expect(storeFileFor('/var/lib/meshdx/meshdx.sqlite', 'b', false)).toBe(
      path.join('/var/lib/meshdx', 'b.sqlite'),
    );
    // names that are not file-safe keep apart: arn:aws:eks:...:cluster/prod vs .../prod2
    const x = storeFileFor('d', 'arn:aws:eks:eu-west-1:1:cluster/prod', false);
    const y = storeFileFor('d', 'arn:aws:eks:eu-west-1:1:cluster/prod2', false);
    expect(x).not.toBe(y);
    expect(path.basename(x)).toMatch(/^[A-Za-z0-9._-]+\.sqlite$/);
    expect(storeFileFor(':memory:', 'x', false)).toBe(':memory:');
  });

  it('writes each context into its own SQLite file', async () => {
    const file = path.join(dir, 'two-contexts-files');
    twoContexts(file);
    const db = path.join(dir, 'stores');
    useKubeconfig(file, db);
    const a = runtimeFor(asMeshdx(null));
    const b = runtimeFor(asMeshdx('other'));
    expect(a.history.file).not.toBe(b.history.file);
    await Promise.all([
      a.recorder.ready,
      b.recorder.ready,
      a.pods.whenListed(),
      b.pods.whenListed(),
    ]);
    a.store.flush();
    b.store.flush();
    // the runtime names its file without the server's path; the files are in MESHDX_DB
    expect(path.basename(a.history.file)).toBe(a.history.file);
    expect(fs.existsSync(path.join(db, a.history.file))).toBe(true);
    expect(fs.existsSync(path.join(db, b.history.file))).toBe(true);
  });
});
