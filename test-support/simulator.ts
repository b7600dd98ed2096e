import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll } from 'vitest';
import { ClusterCache } from '../server/cache/cluster-cache';
import { KubeTransport } from '../server/kube/transport';
import { startSimulator, type RunningSimulator } from '../server/sim/index';

export interface SimClient {
  readonly sim: RunningSimulator;
  readonly kc: KubeConfig;
  /** The adapter's transport to it, through the simulator's kubeconfig (as in production). */
  readonly t: KubeTransport;
  /** A watch-fed cluster cache on it (started by the first use). */
  readonly cache: ClusterCache;
}

/**
 * A named scenario on a fixed clock, with the client side meshdx uses against a real cluster,
 * started before the tests of the enclosing scope and torn down after them.
 */
export function simClient(scenario: string, clock = new Date('2026-11-01T12:00:00Z')): SimClient {
  let state:
    { sim: RunningSimulator; kc: KubeConfig; t: KubeTransport; cache: ClusterCache } | undefined;
  beforeAll(async () => {
    const sim = await startSimulator({ scenario, port: 0, clock: { fixed: clock } });
    const kc = new KubeConfig();
    kc.loadFromString(sim.kubeconfigYaml);
    const t = new KubeTransport(kc);
    state = { sim, kc, t, cache: new ClusterCache(t, kc) };
  });
  afterAll(async () => {
    state?.cache.stop();
    state?.t.close();
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
    get t() {
      return get().t;
    },
    get cache() {
      return get().cache;
    },
  };
}
