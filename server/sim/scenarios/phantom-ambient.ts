/**
 * phantom-503 in ambient: `shop` is enrolled in ambient (no sidecars), so checkout's requests go
 * through the ztunnel of its node, which logs them and holds the workloads. Each ztunnel applies
 * istiod's pushes to its workload table `ztunnelMs` late (12 s here; scenario parameter
 * ztunnelMs): a pod deleted in the rollout is gone from the EndpointSlice and from istiod's push
 * at once, and the ztunnels keep connecting to it until they drop it (istio#58514).
 */
import type { Scenario } from '../world/types';
import { World, type PodEntry } from '../world/build/world';
import { buildIstioSystem } from '../world/build/istio';
import { DEFAULT_XDS_TIMING, xdsTimingFrom, type XdsModel } from '../mesh/istio-model/xds-push';
import {
  AMBIENT_LABELS,
  ambientWorkload,
  startZtunnels,
  ztunnelLine,
  type Ztunnels,
} from './ambient';
import { writeNodes } from './mesh-nodes';
import { PHANTOM_TABLES, runPhantomStory, type PhantomWire } from './phantom-503';
import { applyTables, fqdn, type NamespaceTable } from './table';
import type { Route } from './traffic';

/** PHANTOM_TABLES with every namespace enrolled in ambient and every workload captured. */
const AMBIENT_PHANTOM: readonly NamespaceTable[] = PHANTOM_TABLES.map((t) => ({
  ...t,
  labels: AMBIENT_LABELS,
  workloads: t.workloads.map(ambientWorkload),
}));

/** The ztunnel of a client's node: it writes the client's connections and holds its endpoints. */
function ztunnelWire(world: World, zt: Ztunnels, model: XdsModel): PhantomWire {
  const of = (c: PodEntry) => zt.byNode.get(c.plan.node.name);
  const write = (c: PodEntry, route: Route, at: number, dst: PodEntry | string, error?: string) => {
    const z = of(c);
    const src = c.pod;
    if (z === undefined || src === undefined) return '';
    const svc = route.service;
    const ns = svc.metadata.namespace ?? 'default';
    const target =
      typeof dst === 'string'
        ? (world.livePods(ns).find((e) => e.plan.ip === dst)?.plan ?? { ip: dst, name: '' })
        : dst.plan;
    const line = ztunnelLine(
      at,
      error === undefined ? 'info' : 'error',
      src,
      { ip: target.ip, name: target.name, namespace: ns },
      fqdn(svc.metadata.name, ns),
      error,
    );
    world.log(z, 'istio-proxy', at, line);
    return line;
  };
  return {
    ok: (c, route, at, ip) => void write(c, route, at, ip),
    fail: (c, route, at, target) =>
      write(c, route, at, target, 'io error: Connection refused (os error 111)'),
    holds(c, service, target, at) {
      const z = of(c)?.pod;
      if (z === undefined) return false;
      const applied = model.ztunnelApplied(z, at);
      return (
        applied?.shards
          .get(service)
          ?.some(
            (e) => e.ready && e.address === target.plan.ip && e.pod?.name === target.plan.name,
          ) ?? false
      );
    },
  };
}

export const phantomSlowZtunnel: Scenario = {
  name: 'phantom-503-slow-ztunnel',
  description:
    "phantom-503 in ambient: shop's pods have no sidecars, checkout's requests go through its node's ztunnel, and every ztunnel applies istiod's pushes 12 s late (param ztunnelMs): the EndpointSlice and istiod are current, the ztunnels keep connecting to deleted payments and inventory pods",
  start(ctx) {
    const world = new World(ctx);
    buildIstioSystem(world);
    writeNodes(world, {
      'sim-node-1': 'v1.34.1',
      'sim-node-2': 'v1.34.1',
      'sim-node-3': 'v1.34.1',
    });
    const zt = startZtunnels(world);
    const [shop] = applyTables(world, AMBIENT_PHANTOM);
    if (shop === undefined || ctx.xds === undefined) return;
    const model = ctx.xds.enable(
      xdsTimingFrom(ctx.params, { ...DEFAULT_XDS_TIMING, ztunnelMs: 12_000 }),
    );
    runPhantomStory(world, shop.pods, shop.deployments, model, ztunnelWire(world, zt, model));
  },
};
