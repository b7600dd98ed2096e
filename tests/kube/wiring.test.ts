import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ensureRecorder, stopHistory } from '../../server/history';
import { listPods } from '../../server/kube/resources';
import { startSimulator } from '../../server/sim/index';
import { cluster, onClusterChange, RECHECK_KUBECONFIG_MS, resetWiring } from '../../server/wiring';
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
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-wiring-'));
});

afterEach(() => {
  vi.useRealTimers();
  process.env = { ...saved };
  resetWiring();
});

afterAll(async () => {
  await sim?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('wiring picks up a corrected kubeconfig without a restart', () => {
  it('re-resolves when the kubeconfig file changes, closes the old transport, tells listeners', async () => {
    const file = path.join(dir, 'kubeconfig');
    // first: a server that is not there (an unreachable API server, not a config error)
    fs.writeFileSync(file, sim.kubeconfigYaml.replace(/127\.0\.0\.1:\d+/, '127.0.0.1:9'));
    process.env.MESHDX_KUBECONFIG = file;
    delete process.env.MESHDX_SIMULATED;
    delete process.env.MESHDX_CONTEXT;
    resetWiring();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));

    const dead = cluster();
    expect(dead.source.server).toBe('http://127.0.0.1:9');
    await expect(listPods(dead.transport)).rejects.toMatchObject({ kind: 'unreachable' });
    const closed = vi.spyOn(dead.transport, 'close');
    const seen: (string | undefined)[] = [];
    const off = onClusterChange((c) => seen.push(c?.source.server));

    // the SRE fixes the file
    fs.writeFileSync(file, sim.kubeconfigYaml);
    fs.utimesSync(file, new Date(), new Date(Date.now() + 10_000));
    // within the recheck interval the cached cluster is kept (no stat on every call)
    expect(cluster()).toBe(dead);

    vi.setSystemTime(new Date(Date.now() + RECHECK_KUBECONFIG_MS + 1));
    const fixed = cluster();
    expect(fixed).not.toBe(dead);
    expect(fixed.source.server).toBe(sim.url);
    expect(closed).toHaveBeenCalled();
    expect(seen).toEqual([sim.url]);
    const pods = await listPods(fixed.transport);
    expect(pods.items.length).toBeGreaterThan(0);

    // unchanged file: the same cluster after the next check
    vi.setSystemTime(new Date(Date.now() + RECHECK_KUBECONFIG_MS + 1));
    expect(cluster()).toBe(fixed);
    off();
  });

  it('the history recorder follows to the corrected cluster and records from it', async () => {
    const file = path.join(dir, 'kubeconfig-recorder');
    fs.writeFileSync(file, sim.kubeconfigYaml.replace(/127\.0\.0\.1:\d+/, '127.0.0.1:9'));
    process.env.MESHDX_KUBECONFIG = file;
    process.env.MESHDX_DB = ':memory:';
    delete process.env.MESHDX_SIMULATED;
    delete process.env.MESHDX_CONTEXT;
    resetWiring();
    await stopHistory();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-01-01T00:00:00Z'));
    try {
      const first = ensureRecorder().recorder;
      expect(first).toBeDefined();
      fs.writeFileSync(file, sim.kubeconfigYaml);
      fs.utimesSync(file, new Date(), new Date(Date.now() + 10_000));
      vi.setSystemTime(new Date(Date.now() + RECHECK_KUBECONFIG_MS + 1));
      cluster(); // any request notices the change
      const next = ensureRecorder().recorder;
      expect(next).toBeDefined();
      expect(next).not.toBe(first);
      vi.useRealTimers();
      await next?.ready;
      expect(next?.status().pods.listed).toBe(true);
      expect(next?.status().pods.events).toBeGreaterThan(0);
    } finally {
      vi.useRealTimers();
      await stopHistory();
    }
  });
});
