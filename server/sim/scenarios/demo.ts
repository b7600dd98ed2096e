import type { Scenario } from '../world/types';
import { World } from '../world/build/world';
import { buildIstioSystem } from '../world/build/istio';
import { buildOps } from './ops';
import { applyTables } from './table';
import { RACE_TABLES, startRaceWaves } from './startup-race';
import { PHANTOM_TABLES, runPhantomStory } from './phantom-503';
import { PORT_TABLES, portTraffic } from './port-naming';
import { callTraffic, unscopedTables } from './unscoped-mesh';
import { buildNativeLab } from './native-sidecar';
import { buildAmbient } from './ambient';

/** Everything at once: the startup lab, the shop rollout, the port zoo and a few unscoped teams. */
export const demo: Scenario = {
  name: 'demo',
  description:
    'about 14 namespaces, 75 workloads, 240 pods: every other scenario composed, with istiod, an ingress gateway, ztunnels and a waypoint, and an ops namespace with a CronJob -> Job -> Pod chain and a pod stored without a spec',
  start(ctx) {
    const world = new World(ctx);
    const { istiod } = buildIstioSystem(world, { istiodReplicas: 2 });
    const race = applyTables(world, RACE_TABLES);
    startRaceWaves(world, race);
    const [shop] = applyTables(world, PHANTOM_TABLES);
    if (shop !== undefined) runPhantomStory(world, shop.pods, shop.deployments);
    const [ports] = applyTables(world, PORT_TABLES);
    if (ports !== undefined) portTraffic(world, ports);
    const teams = unscopedTables(world.ids, {
      namespaces: 6,
      scopedIndex: 1,
      maxPodsPerWorkload: 3,
    });
    // Bigger teams so the whole demo reaches about 60 workloads and 200 pods.
    for (const t of teams) {
      for (const s of t.services) {
        if (!t.workloads.some((w) => w.name === s.name)) {
          t.workloads.push({ name: s.name, replicas: 3, startAt: -7200 });
        }
        // Background workers: meshed workloads that no Service selects.
        t.workloads.push({ name: `${s.name}-worker`, replicas: 2, startAt: -5400 });
      }
      for (const w of t.workloads)
        w.replicas = w.name.endsWith('-worker') ? 2 : Math.max(w.replicas, 6);
    }
    callTraffic(world, applyTables(world, teams));
    buildOps(world);
    // after classic sidecars: native sidecars switching on by node version, and ambient
    buildNativeLab(world, istiod);
    buildAmbient(world);
  },
};
