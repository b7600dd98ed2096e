import type { Pod } from '../../lib/kube/types';
import { createMeshEmulator } from '../../server/sim/mesh/index';
import type { RunningSimulator } from '../../server/sim/index';

/**
 * What the simulator itself says about a proxy, read straight from its mesh emulator (not through
 * the API server, not through :15090): the cluster names of its config dump.
 */
export function simClusterNames(sim: RunningSimulator, pod: Pod): string[] {
  const mesh = createMeshEmulator({ now: () => sim.clock.now(), list: (k) => sim.store.list(k) });
  const names: string[] = [];
  for (const resource of ['dynamic_active_clusters', 'static_clusters']) {
    const res = mesh.podHttp(
      pod,
      15000,
      '/config_dump',
      new URLSearchParams({ resource, mask: 'cluster.name' }),
    );
    const body = JSON.parse(res.body) as { configs: { cluster?: { name?: string } }[] };
    for (const c of body.configs) if (c.cluster?.name) names.push(c.cluster.name);
  }
  return names;
}

export function meshedPods(sim: RunningSimulator): Pod[] {
  // the simulator may hold a pod without spec on purpose (a view must survive it): skip it;
  // ztunnel names its container istio-proxy too, but it is ambient's node proxy
  return sim.store
    .list<Pod>('pods')
    .filter(
      (p) =>
        p.spec !== undefined &&
        p.metadata.labels?.app !== 'ztunnel' &&
        ((p.spec.containers ?? []).some((c) => c.name === 'istio-proxy') ||
          (p.spec.initContainers ?? []).some((c) => c.name === 'istio-proxy')),
    );
}
