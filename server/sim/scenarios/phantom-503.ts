import type { Scenario, SimLogs } from '../world/types';
import { World, type Deployment, type PodEntry } from '../world/build/world';
import { buildIstioSystem } from '../world/build/istio';
import { failureFields, type FailureKind } from '../world/build/accesslog';
import { applyTables, calls, fqdn, type NamespaceTable } from './table';
import { every, isServing, okEntry, readyBackends, writeAccess, type Route } from './traffic';
import { proxyLine } from '../world/build/proxylog';
import { stageStaleEndpoint, staleHit, type StaleStage } from './phantom-stale';
import {
  DEFAULT_XDS_TIMING,
  xdsTimingFrom,
  type XdsModel,
  type XdsTiming,
} from '../mesh/istio-model/xds-push';
import { objectKey } from '../../../lib/refs/object-ref';

const NS = 'shop';

export const PHANTOM_TABLES: readonly NamespaceTable[] = [
  {
    name: NS,
    services: [
      { name: 'checkout', ports: [{ name: 'http', port: 8080 }] },
      { name: 'payments', ports: [{ name: 'http', port: 8080 }] },
      { name: 'inventory', ports: [{ name: 'http', port: 8080 }] },
    ],
    workloads: [
      {
        name: 'checkout',
        replicas: 2,
        startAt: -3600,
        annotations: calls([`${fqdn('payments', NS)}:8080`, `${fqdn('inventory', NS)}:8080`]),
      },
      { name: 'payments', replicas: 5, startAt: -3000, terminationGracePeriodSeconds: 30 },
      { name: 'inventory', replicas: 4, startAt: -2800, terminationGracePeriodSeconds: 30 },
    ],
  },
];

/** Ground truth for one 503 line: which pod held the upstream IP when the line was written. */
export interface PhantomTruth {
  time: string;
  client: string;
  line: string;
  ip: string;
  flags: string;
  podName: string;
  podUid: string;
}

const truths = new WeakMap<SimLogs, PhantomTruth[]>();

/** Every 503 line the phantom-503 story wrote into `logs`, with the pod that held the IP. */
export function phantomTruth(logs: SimLogs): readonly PhantomTruth[] {
  return truths.get(logs) ?? [];
}

interface Dying {
  entry: PodEntry;
  from: number;
  until: number;
  route: Route;
  /** Clients keep failing on it until this long after the pod is gone (ms), not just `until`. */
  afterGoneMs?: number;
}

/** Rollout victims: clients still send to them this long after they are gone (stale EDS). */
const AFTER_GONE_MS = 3000;
/** The second replaced payments pod stays in the clients' /clusters this long after removal. */
const STALE_FOR_MS = 240_000;
const STALE_EVERY_MS = 5000;
/** With the layer model, a deleted pod is a target this long at most after its deletion started. */
const FOLLOW_DELETED_MS = 10 * 60_000;

const untilOf = (d: Dying): number =>
  d.afterGoneMs !== undefined && d.entry.plan.removeAt !== undefined
    ? Math.max(d.until, d.entry.plan.removeAt + d.afterGoneMs)
    : d.until;

/** The client's Envoy still has the dying pod's endpoint from the last push it ACKed. */
function heldBy(model: XdsModel, client: PodEntry, d: Dying, at: number): boolean {
  if (client.pod === undefined) return false;
  const svc = d.route.service;
  const key = objectKey(svc.metadata.namespace ?? 'default', svc.metadata.name);
  const eps = model.ackedEndpoints(client.pod, key, at);
  return (
    eps?.some((e) => e.address === d.entry.plan.ip && e.pod?.name === d.entry.plan.name) ?? false
  );
}

/**
 * How the clients' requests reach the pods when not through their own Envoys (ambient: through
 * their node's ztunnel, which logs them and holds the endpoints).
 */
export interface PhantomWire {
  ok(client: PodEntry, route: Route, at: number, ip: string): void;
  /** Writes a failed request to a deleted pod; returns the log line. */
  fail(client: PodEntry, route: Route, at: number, target: PodEntry): string;
  /** Whether the client's path still sends to the deleted pod at `at`. */
  holds(client: PodEntry, service: string, target: PodEntry, at: number): boolean;
}

/** Run the phantom-503 story on an existing `shop`-like namespace built from PHANTOM_TABLES. */
export function runPhantomStory(
  world: World,
  pods: Map<string, PodEntry[]>,
  deps: Map<string, Deployment>,
  /**
   * With the layer-delay model: a client sends to a deleted pod for as long as its Envoy holds
   * the endpoint (the model decides, layer by layer), no IP is reused and no client is told to
   * keep a gone host; without it, the story's fixed windows.
   */
  layers?: XdsModel,
  wire?: PhantomWire,
): void {
  const record: PhantomTruth[] = truths.get(world.ctx.logs) ?? [];
  truths.set(world.ctx.logs, record);
  const svc = (name: string) => world.servicesIn(NS).find((s) => s.metadata.name === name);
  const paySvc = svc('payments');
  const invSvc = svc('inventory');
  let payDep = deps.get('payments');
  const invDep = deps.get('inventory');
  if (paySvc === undefined || invSvc === undefined || payDep === undefined || invDep === undefined)
    return;
  const payRoute: Route = { service: paySvc, port: 8080, path: '/api/v1/charge' };
  const invRoute: Route = { service: invSvc, port: 8080, path: '/api/v1/stock' };
  const clients = (): PodEntry[] => (pods.get('checkout') ?? []).filter(isServing);
  const jsonClient = pods.get('checkout')?.[1]?.plan.name;
  const dying: Dying[] = [];
  const stale: StaleStage[] = [];
  const kinds: FailureKind[] = ['UC', 'UF', 'URX'];
  let k = 0;

  // with the layer model, any pod whose deletion started is a target while a client's path still
  // holds it, whoever deleted it (the story, or a `kubectl rollout restart` through the API)
  const routeOf = (e: PodEntry): Route | undefined =>
    e.dep.spec.name === 'payments'
      ? payRoute
      : e.dep.spec.name === 'inventory'
        ? invRoute
        : undefined;
  const deleting = (at: number): Dying[] => {
    const out = [...dying];
    for (const e of world.entriesIn(NS)) {
      const del = e.plan.deleteAt;
      if (del === undefined || del > at || at - del > FOLLOW_DELETED_MS) continue;
      const route = routeOf(e);
      if (route !== undefined && !out.some((d) => d.entry === e))
        out.push({ entry: e, from: del, until: del, route });
    }
    return out;
  };

  every(world, 1000, 60_000, (at) => {
    for (const c of clients()) {
      const json = c.plan.name === jsonClient;
      for (const route of [payRoute, invRoute]) {
        const b = readyBackends(world, route.service);
        const pick = b[world.ids.int(0, Math.max(0, b.length - 1))];
        if (pick !== undefined && wire !== undefined) wire.ok(c, route, at, pick.plan.ip);
        else if (pick !== undefined)
          writeAccess(world, c, okEntry(world, c, route, at, pick.plan.ip), json);
      }
      for (const st of stale) {
        if (!staleHit(world, st, at, STALE_EVERY_MS)) continue;
        const e = {
          ...okEntry(world, c, payRoute, at + 7, st.target.plan.ip),
          ...failureFields('UF'),
        };
        delete e.upstreamTime;
        const line = writeAccess(world, c, e, json);
        record.push({
          time: new Date(at + 7).toISOString(),
          client: c.plan.name,
          line,
          ip: st.target.plan.ip,
          flags: e.flags,
          podName: st.target.plan.name,
          podUid: st.target.plan.uid,
        });
      }
      for (const d of layers !== undefined ? deleting(at) : dying) {
        if (at < d.from) continue;
        if (wire !== undefined) {
          const svcKey = objectKey(NS, d.route.service.metadata.name);
          if (!wire.holds(c, svcKey, d.entry, at)) continue;
          record.push({
            time: new Date(at + 3).toISOString(),
            client: c.plan.name,
            line: wire.fail(c, d.route, at + 3, d.entry),
            ip: d.entry.plan.ip,
            flags: 'UF',
            podName: d.entry.plan.name,
            podUid: d.entry.plan.uid,
          });
          continue;
        }
        if (layers !== undefined ? !heldBy(layers, c, d, at) : at >= untilOf(d)) continue;
        const kind = kinds[k++ % kinds.length] ?? 'UC';
        const e = {
          ...okEntry(world, c, d.route, at + 3, d.entry.plan.ip),
          ...failureFields(kind),
        };
        if (kind !== 'URX') delete e.upstreamTime;
        const line = writeAccess(world, c, e, json);
        record.push({
          time: new Date(at + 3).toISOString(),
          client: c.plan.name,
          line,
          ip: d.entry.plan.ip,
          flags: e.flags,
          podName: d.entry.plan.name,
          podUid: d.entry.plan.uid,
        });
      }
    }
  });

  const stop = (e: PodEntry, at: number, route: Route, afterGoneMs?: number) => {
    world.stopPod(e, at);
    dying.push({ entry: e, from: at, until: at + 4000, route, afterGoneMs });
  };

  const rollout = (base: number) => {
    const oldDep = payDep;
    if (oldDep === undefined) return;
    const next = world.rollout(oldDep, {
      version: 'v2',
      image: `registry.example.com/${NS}/payments:v${base}`,
    });
    payDep = next;
    const olds = (pods.get('payments') ?? []).filter(
      (e) => !e.removed && e.plan.deleteAt === undefined,
    );
    const fresh: PodEntry[] = [];
    let firstGone: PodEntry | undefined;
    olds.forEach((old, i) => {
      const at = base + i * 6000;
      world.ctx.clock.schedule(new Date(at), () => {
        // The last new pod is placed where the first old pod ran and gets its released IP.
        const reuse =
          layers === undefined && i === olds.length - 1 && firstGone?.removed === true
            ? firstGone
            : undefined;
        const opts = reuse !== undefined ? { node: reuse.plan.node, ip: reuse.plan.ip } : {};
        fresh.push(world.startPod(next, at, opts));
        pods.set('payments', [...(pods.get('payments') ?? []), ...fresh.slice(-1)]);
      });
      world.ctx.clock.schedule(new Date(at + 5000), () => {
        firstGone ??= old;
        stop(old, at + 5000, payRoute, AFTER_GONE_MS);
      });
    });
    const staleTarget = layers === undefined ? olds[1] : undefined;
    if (staleTarget !== undefined) {
      stale.push(
        stageStaleEndpoint(world, staleTarget, () => pods.get('checkout') ?? [], {
          host: fqdn('payments', NS),
          port: 8080,
          forMs: STALE_FOR_MS,
        }),
      );
    }
    for (const c of wire === undefined ? (pods.get('checkout') ?? []) : []) {
      world.log(
        c,
        'istio-proxy',
        base + 500,
        proxyLine(
          base + 500,
          'warning',
          'envoy config\tgRPC config for type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment rejected: stale nonce',
        ),
      );
    }
  };

  const scaleDown = (at: number) => {
    const live = (pods.get('inventory') ?? []).filter(
      (e) => !e.removed && e.plan.deleteAt === undefined,
    );
    for (const e of live.slice(2)) stop(e, at, invRoute);
  };
  const scaleUp = (at: number) => {
    const live = (pods.get('inventory') ?? []).filter(
      (e) => !e.removed && e.plan.deleteAt === undefined,
    );
    const add: PodEntry[] = [];
    for (let i = live.length; i < 4; i++) add.push(world.startPod(invDep, at + i * 500));
    pods.set('inventory', [...(pods.get('inventory') ?? []), ...add]);
  };

  const cycle = (base: number, first: boolean) => () => {
    rollout(base);
    if (!first) world.ctx.clock.schedule(new Date(base + 10_000), () => scaleUp(base + 10_000));
    world.ctx.clock.schedule(new Date(base + 40_000), () => scaleDown(base + 40_000));
    if (world.ctx.clock.mode === 'real') {
      world.ctx.clock.schedule(new Date(base + 300_000), cycle(base + 300_000, false));
    }
  };
  const start = world.now() + 20_000;
  world.ctx.clock.schedule(new Date(start), cycle(start, true));
}

export const phantom503: Scenario = {
  name: 'phantom-503',
  description:
    "shop: checkout calls payments and inventory; payments rolls out at +20s (terminating and just-gone pods get 503 UC/UF/URX, one IP is reused, one gone pod stays in the checkout proxies' /clusters for 4 min and gets UF), inventory scales 4->2 at +60s; repeats every 5 min on a real clock",
  start(ctx) {
    const world = new World(ctx);
    buildIstioSystem(world);
    const [shop] = applyTables(world, PHANTOM_TABLES);
    if (shop !== undefined) runPhantomStory(world, shop.pods, shop.deployments);
  },
};

/** phantom-503 with one layer slow: the layer that holds a deleted pod's IP longest. */
function layerVariant(
  name: string,
  description: string,
  timing: (clients: readonly PodEntry[]) => Partial<XdsTiming>,
): Scenario {
  return {
    name,
    description,
    start(ctx) {
      const world = new World(ctx);
      buildIstioSystem(world);
      const [shop] = applyTables(world, PHANTOM_TABLES);
      if (shop === undefined || ctx.xds === undefined) return;
      const base = { ...DEFAULT_XDS_TIMING, ...timing(shop.pods.get('checkout') ?? []) };
      const model = ctx.xds.enable(xdsTimingFrom(ctx.params, base));
      runPhantomStory(world, shop.pods, shop.deployments, model);
    },
  };
}

export const phantomSlowSlices = layerVariant(
  'phantom-503-slow-slices',
  'phantom-503 where the EndpointSlice controller writes 5 s late (param sliceLagMs): clients keep sending to deleted payments and inventory pods until the slice marks them not ready',
  () => ({ sliceLagMs: 5000 }),
);

export const phantomSlowPush = layerVariant(
  'phantom-503-slow-push',
  "phantom-503 where istiod's push reaches the proxies 8 s after its debounce (param pushQueueMs): the EndpointSlice is current, istiod's shards are, the proxies are not",
  () => ({ pushQueueMs: 8000 }),
);

export const phantomSlowAck = layerVariant(
  'phantom-503-slow-ack',
  'phantom-503 where one checkout proxy ACKs each push 20 s late (param ackMs for the others): only that client keeps sending to deleted pods',
  (clients) => {
    const slow = clients[1]?.plan.name;
    return { ackMsByPod: slow === undefined ? {} : { [slow]: 20_000 } };
  },
);
