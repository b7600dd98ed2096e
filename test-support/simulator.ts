import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll } from 'vitest';
import type { ClusterCache } from '../server/cache/cluster-cache';
import { loadEnv, type MeshdxEnv } from '../server/env';
import { sourceOfKubeConfig } from '../server/kube/source';
import type { KubeTransport } from '../server/kube/transport';
import { ClusterRuntime } from '../server/runtime/runtime';
import { startSimulator, type RunningSimulator } from '../server/sim/index';

export interface SimClient {
  readonly sim: RunningSimulator;
  readonly kc: KubeConfig;
  /** meshdx's runtime for the simulator's context, exactly as the server makes one. */
  readonly runtime: ClusterRuntime;
  /** The runtime's transport to it (through the simulator's kubeconfig, as in production). */
  readonly t: KubeTransport;
  /** The runtime's watch-fed cluster cache (its watches start with the runtime). */
  readonly cache: ClusterCache;
}

/**
 * A cluster runtime on a KubeConfig, with an in-memory history store unless told otherwise:
 * the same object the server's registry makes for a context.
 */
export function runtimeOn(
  kc: KubeConfig,
  opts: { settings?: Partial<MeshdxEnv>; storeFile?: string } = {},
): ClusterRuntime {
  const budget = {
    MESHDX_API_QPS: process.env.MESHDX_API_QPS,
    MESHDX_API_BURST: process.env.MESHDX_API_BURST,
  };
  const settings = { ...loadEnv(budget as unknown as NodeJS.ProcessEnv), ...opts.settings };
  return new ClusterRuntime(sourceOfKubeConfig(kc), settings, opts.storeFile ?? ':memory:');
}

/**
 * A named scenario on a fixed clock, with the client side meshdx uses against a real cluster,
 * started before the tests of the enclosing scope and torn down after them.
 */
export function simClient(
  scenario: string,
  clock = new Date('2026-11-01T12:00:00Z'),
  settings: Partial<MeshdxEnv> = { MESHDX_CLOCK: 'objects' },
): SimClient {
  let state: { sim: RunningSimulator; kc: KubeConfig; runtime: ClusterRuntime } | undefined;
  beforeAll(async () => {
    const sim = await startSimulator({ scenario, port: 0, clock: { fixed: clock } });
    const kc = new KubeConfig();
    kc.loadFromString(sim.kubeconfigYaml);
    state = { sim, kc, runtime: runtimeOn(kc, { settings }).start() };
  });
  afterAll(async () => {
    state?.runtime.stop();
    await state?.sim.close();
  });
  const get = () => {
    if (!state) throw new Error('simulator not started (use it inside a test)');
    return state;
  };
  return {
    get sim() {
      return get().sim;
    },
    get kc() {
      return get().kc;
    },
    get runtime() {
      return get().runtime;
    },
    get t() {
      return get().runtime.transport;
    },
    get cache() {
      return get().runtime.cache;
    },
  };
}

/**
 * A named scenario on a fixed clock and the kubeconfig that reaches it, with no runtime (for
 * tests that make their own runtimes or transports), started before the tests of the enclosing
 * scope and torn down after them.
 */
export function simOnly(
  scenario: string,
  clock = new Date('2026-11-01T12:00:00Z'),
): { readonly sim: RunningSimulator; readonly kc: KubeConfig } {
  let state: { sim: RunningSimulator; kc: KubeConfig } | undefined;
  beforeAll(async () => {
    const sim = await startSimulator({ scenario, port: 0, clock: { fixed: clock } });
    const kc = new KubeConfig();
    kc.loadFromString(sim.kubeconfigYaml);
    state = { sim, kc };
  });
  afterAll(async () => {
    await state?.sim.close();
  });
  const get = () => {
    if (!state) throw new Error('simulator not started (use it inside a test)');
    return state;
  };
  return {
    get sim() {
      return get().sim;
    },
    get kc() {
      return get().kc;
    },
  };
}

/**
 * Moves a simulator's clock on by `totalMs` in steps of `stepMs`, as time passes in a cluster.
 * After each step it waits until every watcher in `seen` (each a count of the pod events it
 * has had) has had every pod change the simulator made since this call, so that a history
 * dated by observation is dated at the step of the change, however loaded the machine (a fixed
 * sleep per step let a busy CI run observe removals steps late). Gives up on a watcher that
 * has not caught up 5 s after a step and goes on.
 */
export async function advanceWatched(
  sim: RunningSimulator,
  totalMs: number,
  stepMs: number,
  seen: readonly (() => number)[] = [],
): Promise<void> {
  const before = seen.map((n) => n());
  let podChanges = 0;
  const unsubscribe = sim.store.subscribe((rec) => {
    if (rec.kind === 'pods') podChanges++;
  });
  const caughtUp = () => seen.every((n, i) => n() - (before[i] ?? 0) >= podChanges);
  try {
    for (let done = 0; done < totalMs; done += stepMs) {
      sim.clock.advance(stepMs);
      const until = Date.now() + 5_000;
      do await new Promise((r) => setTimeout(r, 2));
      while (!caughtUp() && Date.now() < until);
    }
  } finally {
    unsubscribe();
  }
}
