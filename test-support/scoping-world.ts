/**
 * A small mesh for the Scoping report's tests: bookinfo plus a namespace nobody calls, the
 * traffic its workloads were seen sending, the cluster counts the simulator serves its proxies,
 * and the generated YAML applied back to it as `kubectl apply` would.
 */
import { expect } from 'vitest';
import { parse } from 'yaml';
import type {
  DestinationRule,
  Pod,
  Service,
  ServiceEntry,
  Sidecar,
  VirtualService,
} from '../lib/kube/types';
import type { ProxyClusterCount, ScopingInput, TrafficObservation } from '../lib/scoping/types';
import { createMeshEmulator } from '../server/sim/mesh/index';
import {
  bookinfo,
  makePod,
  makeService,
  worldOf,
  type WorldObjects,
} from '../server/sim/mesh/testworld';

export const REVIEWS = 'reviews.default.svc.cluster.local';
export const RATINGS = 'ratings.prod.svc.cluster.local';

/** What the simulator serves a proxy: every cluster name from /clusters?format=json. */
export function simClusters(w: WorldObjects, pod: Pod): string[] {
  const mesh = createMeshEmulator(worldOf(w));
  const r = mesh.podHttp(pod, 15000, '/clusters', new URLSearchParams('format=json'));
  expect(r.status).toBe(200);
  const body = JSON.parse(r.body) as { cluster_statuses: { name: string }[] };
  return body.cluster_statuses.map((c) => c.name);
}

export function simCount(w: WorldObjects, pod: Pod): ProxyClusterCount {
  const names = simClusters(w, pod);
  return {
    namespace: pod.metadata.namespace ?? 'default',
    pod: pod.metadata.name,
    active: names.length,
    service: names.filter((n) => n.includes('|')).length,
  };
}

export const pods = (w: WorldObjects) => (w.pods ?? []) as Pod[];
export const scopable = (w: WorldObjects) =>
  pods(w).filter((p) => {
    const px = p.spec.containers.find((c) => c.name === 'istio-proxy');
    return px !== undefined && !(px.args ?? []).includes('router');
  });

export function inputOf(
  w: WorldObjects,
  observations: TrafficObservation[],
  counts: ProxyClusterCount[] | 'measure' = 'measure',
  window: ScopingInput['window'] = { start: '2024-06-01T00:00:00Z', end: '2024-06-01T12:00:00Z' },
): ScopingInput {
  return {
    generatedAt: '2024-06-01T12:00:00Z',
    pods: pods(w),
    services: (w.services ?? []) as Service[],
    serviceEntries: (w.serviceentries ?? []) as ServiceEntry[],
    sidecars: (w.sidecars ?? []) as Sidecar[],
    destinationRules: (w.destinationrules ?? []) as DestinationRule[],
    virtualServices: (w.virtualservices ?? []) as VirtualService[],
    proxyCounts: counts === 'measure' ? scopable(w).map((p) => simCount(w, p)) : counts,
    observations,
    window,
  };
}

/** bookinfo plus a `shop` namespace nobody calls: productpage -> reviews, reviews -> ratings.prod. */
export function world(): WorldObjects {
  const w = bookinfo();
  pods(w).push(makePod('cart-1', 'shop', '10.1.3.1', { labels: { app: 'cart' } }));
  (w.services as Service[]).push(
    makeService(
      'cart',
      'shop',
      [
        { port: 8080, name: 'http' },
        { port: 8443, name: 'grpc' },
      ],
      { app: 'cart' },
    ),
  );
  return w;
}

export function traffic(): TrafficObservation[] {
  return [
    {
      source: 'envoy-stats',
      namespace: 'default',
      pod: 'productpage-v1-abc',
      available: true,
      hits: [
        { cluster: `outbound|9080||${REVIEWS}`, count: 42 },
        { cluster: 'xds-grpc', count: 9 },
        { cluster: 'inbound|9080||', count: 50 },
      ],
    },
    {
      source: 'access-log',
      namespace: 'default',
      pod: 'reviews-v1-aaa',
      available: true,
      hits: [{ cluster: `outbound|9080||${RATINGS}`, count: 7 }],
    },
    {
      source: 'envoy-stats',
      namespace: 'default',
      pod: 'reviews-v2-bbb',
      available: false,
      error: 'connection refused',
      hits: [],
    },
    {
      source: 'prometheus',
      namespace: 'default',
      workload: 'reviews-v2-bbb',
      available: true,
      hits: [
        { host: RATINGS, count: 3 },
        { host: 'unknown', count: 1 },
      ],
    },
    {
      source: 'prometheus',
      namespace: 'prod',
      workload: 'ratings-v1-ccc',
      available: true,
      hits: [],
    },
    { source: 'prometheus', namespace: 'shop', workload: 'cart-1', available: true, hits: [] },
    { source: 'prometheus', namespace: 'gone', workload: 'old', available: true, hits: [] },
  ];
}

/** Apply the report's applicable YAML to a copy of the world, as `kubectl apply` would. */
export function applyGenerated(w: WorldObjects, yamls: string[]): WorldObjects {
  const next: WorldObjects = { ...w, sidecars: [...((w.sidecars ?? []) as Sidecar[])] };
  let rv = 5000;
  for (const y of yamls) {
    const doc = parse(y) as Sidecar;
    const list = next.sidecars as Sidecar[];
    const i = list.findIndex(
      (s) =>
        s.metadata.name === doc.metadata.name && s.metadata.namespace === doc.metadata.namespace,
    );
    const created = i >= 0 ? list[i]?.metadata.creationTimestamp : '2024-06-01T12:30:00Z';
    const obj = {
      ...doc,
      metadata: { ...doc.metadata, creationTimestamp: created, resourceVersion: String(rv++) },
    };
    if (i >= 0) list[i] = obj;
    else list.push(obj);
  }
  return next;
}
