import type { Service } from '../../../lib/kube/types';
import type { PodEntry, World } from '../world/build/world';
import { jsonLine, textLine, type AccessEntry } from '../world/build/accesslog';
import { fqdn } from './table';

/** A service port a client calls. */
export interface Route {
  service: Service;
  port: number;
  path: string;
  /** Outbound cluster name override (PassthroughCluster for external hosts). */
  cluster?: string;
  authority?: string;
  /** Fixed upstream host (external); otherwise a ready endpoint of the service. */
  upstreamHost?: string;
}

export function isServing(e: PodEntry): boolean {
  const p = e.pod;
  if (e.removed || p === undefined || p.metadata.deletionTimestamp !== undefined) return false;
  return p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

/** Ready pods behind a service right now. */
export function readyBackends(world: World, svc: Service): PodEntry[] {
  const ns = svc.metadata.namespace ?? 'default';
  const app = svc.spec.selector?.app;
  return world.livePods(ns).filter((e) => e.pod?.metadata.labels?.app === app && isServing(e));
}

/** A successful request from `client` over `route` at `at`. */
export function okEntry(
  world: World,
  client: PodEntry,
  route: Route,
  at: number,
  upstreamIp: string,
): AccessEntry {
  const svc = route.service;
  const ns = svc.metadata.namespace ?? 'default';
  const host = fqdn(svc.metadata.name, ns);
  const dur = world.ids.int(2, 40);
  return {
    at,
    method: 'GET',
    path: route.path,
    protocol: 'HTTP/1.1',
    code: 200,
    flags: '-',
    details: 'via_upstream',
    bytesIn: 0,
    bytesOut: world.ids.int(80, 2400),
    duration: dur,
    upstreamTime: Math.max(1, dur - 1),
    userAgent: `${client.dep.spec.name}/1.0`,
    requestId: world.ids.requestId(),
    authority: route.authority ?? `${svc.metadata.name}:${route.port}`,
    upstreamHost: route.upstreamHost ?? `${upstreamIp}:${route.port}`,
    upstreamCluster: route.cluster ?? `outbound|${route.port}||${host}`,
    upstreamLocal: `${client.plan.ip}:${world.ids.int(32768, 60999)}`,
    downstreamLocal: `${svc.spec.clusterIP ?? '0.0.0.0'}:${route.port}`,
    downstreamRemote: `${client.plan.ip}:${world.ids.int(32768, 60999)}`,
    route: route.cluster === 'PassthroughCluster' ? 'allow_any' : 'default',
  };
}

/** Write an access entry into the client's istio-proxy log, in its pod's encoding. */
export function writeAccess(world: World, client: PodEntry, e: AccessEntry, json: boolean): string {
  const line = json ? jsonLine(e) : textLine(e);
  world.log(client, 'istio-proxy', e.at, line);
  world.access(client, e);
  return line;
}

/**
 * Run `tick(at)` every `everyMs`: first for the past `backfillMs` (history a fresh dashboard can
 * read), then on the clock, forever (the clock decides how far time goes).
 */
export function every(
  world: World,
  everyMs: number,
  backfillMs: number,
  tick: (at: number) => void,
): void {
  const now = world.now();
  for (let t = now - backfillMs; t < now; t += everyMs) tick(t);
  const step = (at: number) => () => {
    tick(at);
    world.ctx.clock.schedule(new Date(at + everyMs), step(at + everyMs));
  };
  world.ctx.clock.schedule(new Date(now + everyMs), step(now + everyMs));
}

/** Light steady traffic: each client calls one of its routes per tick. */
export function steadyTraffic(
  world: World,
  pairs: { client: () => PodEntry[]; routes: Route[] }[],
  everyMs = 2000,
): void {
  every(world, everyMs, 30_000, (at) => {
    for (const p of pairs) {
      for (const client of p.client()) {
        if (!isServing(client) || p.routes.length === 0) continue;
        const route = p.routes[world.ids.int(0, p.routes.length - 1)];
        if (route === undefined) continue;
        const backends =
          route.upstreamHost !== undefined ? [] : readyBackends(world, route.service);
        const b = backends[world.ids.int(0, Math.max(0, backends.length - 1))];
        if (route.upstreamHost === undefined && b === undefined) continue;
        writeAccess(world, client, okEntry(world, client, route, at, b?.plan.ip ?? ''), false);
      }
    }
  });
}
