import type { Scenario } from '../world/types';
import { World, type Deployment } from '../world/build/world';
import { buildIstioSystem } from '../world/build/istio';
import type { WorkloadSpec } from '../world/build/workload';
import { writeNodes } from './mesh-nodes';
import { INJECTED, type NamespaceTable } from './table';

const NATIVE_ANNOTATION = 'sidecar.istio.io/nativeSidecar';

/**
 * Native sidecars as they really switch on: istiod 1.27 (ENABLE_NATIVE_SIDECARS unset, so
 * `auto`), two nodes on kubelet 1.33 and one on 1.32. Pods injected while every node was on
 * 1.33 run native without any annotation; a pod created now is classic (one node is too old),
 * so their next restart flips them. Others pin their mode with the annotation.
 */
export const NODE_VERSIONS: Readonly<Record<string, string>> = {
  'sim-node-1': 'v1.33.2',
  'sim-node-2': 'v1.33.2',
  'sim-node-3': 'v1.32.6',
};

const http = (name: string) => ({ name, ports: [{ name: 'http', port: 8080 }] });

const LAB: WorkloadSpec[] = [
  // injected natively in auto mode (no annotation) before the 1.32 node joined: flips
  { name: 'checkout', replicas: 3, mode: 'native', startAt: -5400 },
  // pinned native and pinned classic: no flip whatever the nodes
  { name: 'ledger-api', replicas: 2, mode: 'native', startAt: -4800 },
  {
    name: 'legacy-batch',
    replicas: 1,
    mode: 'classic',
    annotations: { [NATIVE_ANNOTATION]: 'false' },
    startAt: -4200,
  },
  // classic, injected in auto mode after the 1.32 node joined: stays classic
  { name: 'search-api', replicas: 2, mode: 'classic', startAt: -1800 },
  // native proxy that never gets ready (istiod unreachable for it): the app never starts
  { name: 'payments', replicas: 1, mode: 'native', proxyReadySeconds: 3600, startAt: -420 },
  // hold configured on a native pod: dead configuration
  {
    name: 'orders-v2',
    replicas: 2,
    mode: 'native',
    proxyConfig: { holdApplicationUntilProxyStarts: true },
    startAt: -3000,
  },
];

/** Workloads injected by `auto` carry no nativeSidecar annotation. */
const AUTO_INJECTED = new Set(['checkout']);

export const NATIVE_TABLES: readonly NamespaceTable[] = [
  { name: 'native-lab', services: LAB.map((w) => http(w.name)), workloads: LAB },
];

/** istiod replaced by 1.27.3 an hour ago: ENABLE_NATIVE_SIDECARS defaults to auto from 1.27. */
export function upgradeIstiod(world: World, istiod: Deployment): Deployment {
  const next = world.rollout(istiod, { image: 'docker.io/istio/pilot:1.27.3' });
  const at = world.at(-3600);
  const old = world.livePods('istio-system').filter((e) => e.dep.spec.name === 'istiod');
  for (let i = 0; i < istiod.spec.replicas; i++) world.startPod(next, at + i * 2000);
  for (const e of old) world.stopPod(e, at + 30_000);
  return next;
}

/**
 * Build the native lab into a world whose istiod is already there. The simulator's injector
 * annotates every native pod it makes; pods injected by `auto` carry no annotation, so it is
 * taken off their template (and put on the pinned ones explicitly) before their pods start.
 */
export function buildNativeLab(world: World, istiod: Deployment): void {
  writeNodes(world, NODE_VERSIONS);
  upgradeIstiod(world, istiod);
  world.batch(() => {
    for (const t of NATIVE_TABLES) {
      world.namespace(t.name, INJECTED);
      for (const svc of t.services) world.service(t.name, svc);
      for (const w of t.workloads) {
        const dep = world.deployment(t.name, w);
        if (AUTO_INJECTED.has(w.name)) delete dep.tpl.annotations[NATIVE_ANNOTATION];
        else if (w.mode === 'native') dep.tpl.annotations[NATIVE_ANNOTATION] = 'true';
        const start = world.at(w.startAt ?? -3600);
        for (let i = 0; i < w.replicas; i++) world.startPod(dep, start + i * 1500);
      }
    }
  });
}

export const nativeSidecar: Scenario = {
  name: 'native-sidecar',
  description:
    'native-lab: istiod 1.27 in auto mode, nodes on kubelet 1.33 and 1.32; native pods injected by auto (they flip to classic at the next restart), pinned native and classic pods, a native proxy that never gets ready, hold configured on native pods',
  start(ctx) {
    const world = new World(ctx);
    const { istiod } = buildIstioSystem(world);
    buildNativeLab(world, istiod);
  },
};
