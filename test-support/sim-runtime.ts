import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resetRegistry } from '../server/runtime/registry';
import { startSimulator, type RunningSimulator, type SimulatorOptions } from '../server/sim/index';

/** A simulator with meshdx's runtime registry pointed at it through the environment. */
export interface SimRuntime {
  sim: RunningSimulator;
  /** The kubeconfig file (mode 600) that MESHDX_KUBECONFIG names. */
  kubeconfig: string;
  /** A folder of the test's own (removed on close), where the kubeconfig is. */
  dir: string;
  /** Stops the runtimes and the simulator, puts the environment back, removes the files. */
  close(): Promise<void>;
}

/**
 * Starts a simulator (on a fixed clock unless told otherwise), writes its kubeconfig, and sets
 * the environment a server would have: MESHDX_KUBECONFIG, an in-memory store, and no context,
 * auth mode or Prometheus left over from the caller's environment; `env` adds or overrides
 * (undefined removes). The registry is reset so the next view starts a runtime on it.
 */
export async function runtimeOnSimulator(
  opts: Omit<SimulatorOptions, 'port' | 'clock'> & {
    clock?: SimulatorOptions['clock'];
    env?: Record<string, string | undefined>;
  },
): Promise<SimRuntime> {
  const saved = { ...process.env };
  const { env = {}, ...simOpts } = opts;
  const sim = await startSimulator({
    clock: { fixed: new Date('2026-11-01T12:00:00Z') },
    ...simOpts,
    port: 0,
  });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `meshdx-${opts.scenario}-`));
  const kubeconfig = path.join(dir, 'kubeconfig');
  fs.writeFileSync(kubeconfig, sim.kubeconfigYaml, { mode: 0o600 });
  const next: NodeJS.ProcessEnv = {
    ...saved,
    MESHDX_DB: ':memory:',
    MESHDX_KUBECONFIG: kubeconfig,
  };
  for (const k of ['MESHDX_CONTEXT', 'MESHDX_AUTH', 'MESHDX_PROMETHEUS']) delete next[k];
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete next[k];
    else next[k] = v;
  }
  process.env = next;
  resetRegistry();
  return {
    sim,
    kubeconfig,
    dir,
    close: async () => {
      resetRegistry();
      process.env = saved;
      await sim.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
