import type { DestinationRule, Pod, Sidecar, VirtualService } from '../../../lib/kube/types';
import type { Scenario } from '../world/types';
import { NODES } from '../world/build/nodes';
import { World, type Deployment, type PodEntry } from '../world/build/world';
import { buildIstioSystem } from '../world/build/istio';
import type { WorkloadSpec } from '../world/build/workload';
import { ZTUNNEL_STALE_ANNOTATION, type StaleZtunnelWorkload } from '../mesh/ztunnel';
import { writeNodes } from './mesh-nodes';
import { fqdn } from './table';

/**
 * Ambient: the ztunnel DaemonSet (one pod per node, app=ztunnel), a waypoint (an Envoy
 * Deployment running `proxy waypoint`) used by `mesh-ambient`, a namespace mid-migration
 * (ambient label, sidecars still in some pods, sidecar-era routing config), and a rollout of
 * `api` that the ztunnel of sim-node-2 did not follow: it still holds the old pods and its
 * access log shows connections to them failing.
 */
export const AMBIENT_NS = 'mesh-ambient';
export const MIGRATING_NS = 'mesh-migrating';
export const LAGGING_NODE = 'sim-node-2';

export const AMBIENT_LABELS = { 'istio.io/dataplane-mode': 'ambient' };
const CAPTURED = { 'ambient.istio.io/redirection': 'enabled' };
const ZTUNNEL_IMAGE = 'docker.io/istio/ztunnel:1.27.3';

const http = (name: string, port = 8080) => ({ name, ports: [{ name: 'http', port }] });

export function ambientWorkload(w: WorkloadSpec): WorkloadSpec {
  return { ...w, mode: 'none', annotations: { ...CAPTURED, ...w.annotations } };
}

export interface Ztunnels {
  dep: Deployment;
  byNode: Map<string, PodEntry>;
}

/** ztunnel's DaemonSet: one pod per node, pinned to it (no sidecar, it is the node proxy). */
export function startZtunnels(world: World): Ztunnels {
  const dep = world.deployment('istio-system', {
    name: 'ztunnel',
    replicas: NODES.length,
    mode: 'none',
    containerName: 'istio-proxy',
    image: ZTUNNEL_IMAGE,
    command: ['/usr/local/bin/ztunnel', 'proxy', 'ztunnel'],
    labels: { 'sidecar.istio.io/inject': 'false', 'istio.io/dataplane-mode': 'none' },
    ports: [
      { containerPort: 15020, name: 'ztunnel-stats' },
      { containerPort: 15021, name: 'health' },
      { containerPort: 15008, name: 'hbone' },
    ],
  });
  const byNode = new Map<string, PodEntry>();
  const at = world.at(-7000);
  NODES.forEach((node, i) => {
    byNode.set(node.name, world.startPod(dep, at + i * 1000, { node, quiet: true }));
  });
  return { dep, byNode };
}

/**
 * The waypoint for `ns`: a Service (its VIP is what ztunnel sends to) and its Envoy pods. Istio's
 * gateway controller makes the Service: a tcp status port, then one port per Gateway listener
 * with the listener's protocol as appProtocol (the waypoint's `mesh` listener is HBONE).
 */
function startWaypoint(world: World, ns: string): Deployment {
  // the Gateway the waypoint is (`istioctl waypoint apply`): Istio's controller makes the
  // Service and the Deployment below from it
  world.object('k8sgateways', {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'Gateway',
    metadata: {
      name: 'waypoint',
      namespace: ns,
      labels: { 'istio.io/waypoint-for': 'service' },
      creationTimestamp: new Date(world.at(-6900)).toISOString(),
    },
    spec: {
      gatewayClassName: 'istio-waypoint',
      listeners: [{ name: 'mesh', port: 15008, protocol: 'HBONE' }],
    },
  });
  world.service(ns, {
    name: 'waypoint',
    labels: {
      'gateway.networking.k8s.io/gateway-name': 'waypoint',
      'gateway.istio.io/managed': 'istio.io-mesh-controller',
    },
    ports: [
      { name: 'status-port', port: 15021, appProtocol: 'tcp' },
      { name: 'mesh', port: 15008, appProtocol: 'hbone' },
    ],
  });
  const dep = world.deployment(ns, {
    name: 'waypoint',
    replicas: 1,
    mode: 'gateway',
    labels: {
      'gateway.networking.k8s.io/gateway-name': 'waypoint',
      'istio.io/gateway-name': 'waypoint',
    },
  });
  // a waypoint runs `pilot-agent proxy waypoint`, not `proxy router`
  for (const c of dep.tpl.spec.containers) {
    if (c.args) c.args = c.args.map((a) => (a === 'router' ? 'waypoint' : a));
  }
  world.startPod(dep, world.at(-6800));
  return dep;
}

function podOf(e: PodEntry): Pod | undefined {
  return e.pod;
}

/** One ztunnel access-log line (text), as ztunnel writes a finished connection. */
export function ztunnelLine(
  at: number,
  level: 'info' | 'error',
  src: Pod,
  dst: { ip: string; name: string; namespace: string },
  service: string,
  error?: string,
): string {
  const ns = src.metadata.namespace ?? 'default';
  const sa = src.spec.serviceAccountName ?? 'default';
  const fields = [
    `src.addr=${src.status?.podIP ?? ''}:${40000 + (at % 20000)}`,
    `src.workload=${src.metadata.name}`,
    `src.namespace=${ns}`,
    `src.identity="spiffe://cluster.local/ns/${ns}/sa/${sa}"`,
    `dst.addr=${dst.ip}:15008`,
    `dst.hbone_addr=${dst.ip}:8080`,
    `dst.service=${service}`,
    `dst.workload=${dst.name}`,
    `dst.namespace=${dst.namespace}`,
    'direction="outbound"',
    `bytes_sent=${error ? 0 : 67}`,
    `bytes_recv=${error ? 0 : 490}`,
    `duration="${error ? '3001ms' : '2ms'}"`,
    ...(error ? [`error="${error}"`] : []),
  ];
  const time = new Date(at).toISOString().replace('Z', '000Z');
  return `${time}\t${level}\taccess\tconnection complete\t${fields.join(' ')}`;
}

const AMBIENT_APPS: WorkloadSpec[] = [
  { name: 'web', replicas: 3, startAt: -6000 },
  { name: 'api', replicas: 3, startAt: -5400 },
  { name: 'worker', replicas: 2, startAt: -5000 },
  // opted out of ambient by its own label: ztunnel leaves it alone
  {
    name: 'legacy-db',
    replicas: 1,
    startAt: -6500,
    labels: { 'istio.io/dataplane-mode': 'none' },
  },
];

/** Build the ambient namespaces into a world that has istio-system. */
export function buildAmbient(world: World): void {
  const zt = startZtunnels(world);
  // the ambient namespace, with its waypoint
  world.namespace(AMBIENT_NS, { ...AMBIENT_LABELS, 'istio.io/use-waypoint': 'waypoint' });
  for (const w of AMBIENT_APPS) world.service(AMBIENT_NS, http(w.name));
  startWaypoint(world, AMBIENT_NS);
  const deps = new Map<string, Deployment>();
  const pods = new Map<string, PodEntry[]>();
  world.batch(() => {
    for (const w of AMBIENT_APPS) {
      const spec =
        w.labels?.['istio.io/dataplane-mode'] === 'none'
          ? { ...w, mode: 'none' as const }
          : ambientWorkload(w);
      const dep = world.deployment(AMBIENT_NS, spec);
      deps.set(w.name, dep);
      const start = world.at(w.startAt ?? -3600);
      pods.set(
        w.name,
        Array.from({ length: w.replicas }, (_, i) => world.startPod(dep, start + i * 1500)),
      );
    }
  });
  // the lagging ztunnel keeps every api pod that goes away
  const lagging = zt.byNode.get(LAGGING_NODE);
  const stale: StaleZtunnelWorkload[] = [];
  world.podRemovedHooks.push((e) => {
    if (lagging?.pod === undefined || e.dep.namespace !== AMBIENT_NS || e.dep.spec.name !== 'api')
      return;
    stale.push({
      name: e.plan.name,
      namespace: e.plan.namespace,
      ip: e.plan.ip,
      node: e.plan.node.name,
    });
    const pod = lagging.pod;
    const next: Pod = {
      ...pod,
      metadata: {
        ...pod.metadata,
        annotations: {
          ...pod.metadata.annotations,
          [ZTUNNEL_STALE_ANNOTATION]: JSON.stringify(stale),
        },
      },
    };
    lagging.pod = world.ctx.store.upsert('pods', next);
  });
  // ztunnel access logs: web calls api; after the rollout the lagging ztunnel still sends to
  // the old api pods, whose IPs no pod holds any more
  const oldApi = (pods.get('api') ?? []).map(podOf).filter((p): p is Pod => p !== undefined);
  const apiDep = deps.get('api');
  // after the clock starts, so that a meshdx watching from the start records the old pods going
  const rolloutAt = world.at(30);
  if (apiDep !== undefined) {
    const next = world.rollout(apiDep, { version: 'v2' });
    const fresh = Array.from({ length: 3 }, (_, i) => world.startPod(next, rolloutAt + i * 1500));
    void fresh;
    (pods.get('api') ?? []).forEach((e, i) => world.stopPod(e, rolloutAt + 5000 + i * 1500));
  }
  const service = fqdn('api', AMBIENT_NS);
  for (const webEntry of pods.get('web') ?? []) {
    const web = webEntry.pod;
    const ztunnel = zt.byNode.get(webEntry.plan.node.name);
    if (web === undefined || ztunnel === undefined) continue;
    oldApi.forEach((api, i) => {
      const dst = { ip: api.status?.podIP ?? '', name: api.metadata.name, namespace: AMBIENT_NS };
      const before = rolloutAt - 120_000 + i * 7000;
      world.log(ztunnel, 'istio-proxy', before, ztunnelLine(before, 'info', web, dst, service));
      if (webEntry.plan.node.name === LAGGING_NODE) {
        const after = rolloutAt + 60_000 + i * 9000;
        world.log(
          ztunnel,
          'istio-proxy',
          after,
          ztunnelLine(
            after,
            'error',
            web,
            dst,
            service,
            'io error: Connection refused (os error 111)',
          ),
        );
      }
    });
  }
  buildMigrating(world);
}

/** Mid-migration: labelled ambient, but reviews still runs its sidecars and sidecar-era config. */
function buildMigrating(world: World): void {
  const ns = MIGRATING_NS;
  world.namespace(ns, { ...AMBIENT_LABELS });
  for (const name of ['reviews', 'ratings', 'details']) world.service(ns, http(name, 9080));
  const specs: WorkloadSpec[] = [
    // injected before the namespace moved: still sidecars until restarted
    { name: 'reviews', replicas: 2, mode: 'classic', startAt: -7200 },
    ambientWorkload({ name: 'ratings', replicas: 2, startAt: -1200 }),
    ambientWorkload({ name: 'details', replicas: 1, startAt: -1100 }),
  ];
  world.batch(() => {
    for (const w of specs) {
      const dep = world.deployment(ns, w);
      const start = world.at(w.startAt ?? -3600);
      for (let i = 0; i < w.replicas; i++) world.startPod(dep, start + i * 1500);
    }
  });
  const dr: DestinationRule = {
    apiVersion: 'networking.istio.io/v1',
    kind: 'DestinationRule',
    metadata: { name: 'reviews', namespace: ns },
    spec: {
      host: fqdn('reviews', ns),
      subsets: [
        { name: 'v1', labels: { version: 'v1' } },
        { name: 'v2', labels: { version: 'v2' } },
      ],
    },
  };
  world.object('destinationrules', dr);
  const vs: VirtualService = {
    apiVersion: 'networking.istio.io/v1',
    kind: 'VirtualService',
    metadata: { name: 'reviews', namespace: ns },
    spec: {
      hosts: ['reviews'],
      http: [
        {
          route: [
            { destination: { host: 'reviews', subset: 'v1' }, weight: 80 },
            { destination: { host: 'reviews', subset: 'v2' }, weight: 20 },
          ],
        },
      ],
    },
  };
  world.object('virtualservices', vs);
  const sc: Sidecar = {
    apiVersion: 'networking.istio.io/v1',
    kind: 'Sidecar',
    metadata: { name: 'default', namespace: ns },
    spec: { egress: [{ hosts: ['./*', 'istio-system/*'] }] },
  };
  world.object('sidecars', sc);
}

export const ambient: Scenario = {
  name: 'ambient',
  description:
    'mesh-ambient: ztunnel on every node, a waypoint, an opted-out pod and an api rollout one ztunnel did not follow (stale workloads, failed connections in its log); mesh-migrating: ambient label with sidecars and sidecar-era routing left',
  start(ctx) {
    const world = new World(ctx);
    buildIstioSystem(world);
    writeNodes(world, {
      'sim-node-1': 'v1.34.1',
      'sim-node-2': 'v1.34.1',
      'sim-node-3': 'v1.34.1',
    });
    buildAmbient(world);
  },
};
