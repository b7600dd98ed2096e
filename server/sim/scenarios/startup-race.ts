import type { Scenario } from '../world/types';
import { World } from '../world/build/world';
import { buildIstioSystem } from '../world/build/istio';
import type { WorkloadSpec } from '../world/build/workload';
import { applyTables, type BuiltNamespace, type NamespaceTable } from './table';

const http = (name: string) => ({ name, ports: [{ name: 'http', port: 8080 }] });

/** Every startup mode and termination verdict meshdx must tell apart, one workload each. */
const LAB: WorkloadSpec[] = [
  { name: 'orders', replicas: 2, mode: 'classic', race: true, startAt: -900 },
  // Lucky: the registry refused the app image's first pull, so the kubelet started istio-proxy
  // first and the app only after the back-off, when the proxy was ready: classic-ok.
  {
    name: 'catalog',
    replicas: 2,
    mode: 'classic',
    race: false,
    appPullRetrySeconds: 10,
    startAt: -1800,
  },
  // Stuck in ContainerCreating (its ConfigMap is missing): nothing started, verdict unknown.
  {
    name: 'inventory',
    replicas: 1,
    mode: 'classic',
    missingConfigMap: 'inventory-config',
    startAt: -300,
  },
  { name: 'billing', replicas: 2, mode: 'hold-annotation', startAt: -1200 },
  { name: 'ledger', replicas: 1, mode: 'hold-injected', startAt: -1500 },
  { name: 'search', replicas: 2, mode: 'native', startAt: -2400 },
  { name: 'reports', replicas: 1, mode: 'wrapper', startAt: -600 },
  { name: 'legacy-cron', replicas: 1, mode: 'none', startAt: -7200 },
  { name: 'frontend', replicas: 1, mode: 'classic', race: true, startAt: 10 },
];

const DRAIN: WorkloadSpec[] = [
  {
    name: 'cart',
    replicas: 2,
    proxyConfig: { terminationDrainDuration: '5s' },
    preStopSleep: 20,
    terminationGracePeriodSeconds: 60,
    startAt: -3000,
    deleteAt: -3,
  },
  {
    name: 'exporter',
    replicas: 2,
    preStopSleep: 45,
    terminationGracePeriodSeconds: 30,
    startAt: -3000,
    deleteAt: -1,
  },
  {
    name: 'streamer',
    replicas: 1,
    proxyEnv: { EXIT_ON_ZERO_ACTIVE_CONNECTIONS: 'true' },
    startAt: -3000,
    deleteAt: 30,
  },
];

export const RACE_TABLES: readonly NamespaceTable[] = [
  { name: 'race-lab', services: LAB.map((w) => http(w.name)), workloads: LAB },
  { name: 'race-drain', services: DRAIN.map((w) => http(w.name)), workloads: DRAIN },
];

/** In real-clock mode, restart the racing workloads every few minutes so a live dashboard sees it. */
export function startRaceWaves(world: World, built: BuiltNamespace[], periodMs = 180_000): void {
  if (world.ctx.clock.mode !== 'real') return;
  const lab = built.find((b) => b.table.name === 'race-lab');
  const dep = lab?.deployments.get('frontend');
  if (dep === undefined) return;
  let current = lab?.pods.get('frontend') ?? [];
  const wave = (at: number) => () => {
    const next = world.startPod(dep, at, { race: true });
    for (const old of current) world.stopPod(old, at + 15_000);
    current = [next];
    world.ctx.clock.schedule(new Date(at + periodMs), wave(at + periodMs));
  };
  world.ctx.clock.schedule(new Date(world.now() + periodMs), wave(world.now() + periodMs));
}

export const startupRace: Scenario = {
  name: 'startup-race',
  description:
    'race-lab: classic sidecar race (crash + restart), lucky classic (app image pull retried, proxy ready first), pod stuck in ContainerCreating (missing ConfigMap), hold (annotation and injected), native sidecar, wrapper script, no proxy; race-drain: drain shorter than preStop, grace exceeded, EXIT_ON_ZERO_ACTIVE_CONNECTIONS',
  start(ctx) {
    const world = new World(ctx);
    buildIstioSystem(world);
    const built = applyTables(world, RACE_TABLES);
    startRaceWaves(world, built);
  },
};
