/**
 * The Scoping report with VirtualServices: counts, cut-offs, proposal warnings and egress-host
 * checks know that an imported VirtualService's destinations are visible. Hand-made objects; the
 * simulator's own istiod model (sidecar-scope.ts) gives the cluster counts to compare with.
 */
import { describe, it, expect } from 'vitest';
import { parse } from 'yaml';
import type {
  DestinationRule,
  Pod,
  Service,
  ServiceEntry,
  Sidecar,
  VirtualService,
} from '../kube/types';
import { createMeshEmulator } from '../../server/sim/mesh/index';
import {
  makePod,
  makeService,
  makeSidecar,
  worldOf,
  type WorldObjects,
} from '../../server/sim/mesh/testworld';
import { buildScopingReport } from './report';
import type { ProxyClusterCount, TrafficObservation } from './types';

const REVIEWS = 'reviews.back.svc.cluster.local';

function simCount(w: WorldObjects, pod: Pod): ProxyClusterCount {
  const mesh = createMeshEmulator(worldOf(w));
  const r = mesh.podHttp(pod, 15000, '/clusters', new URLSearchParams('format=json'));
  const names = (
    JSON.parse(r.body) as { cluster_statuses: { name: string }[] }
  ).cluster_statuses.map((c) => c.name);
  return {
    namespace: pod.metadata.namespace ?? 'default',
    pod: pod.metadata.name,
    active: names.length,
    service: names.filter((n) => n.includes('|')).length,
  };
}

function route(name: string, namespace: string, hosts: string[], port?: number): VirtualService {
  return {
    kind: 'VirtualService',
    metadata: {
      name,
      namespace,
      resourceVersion: '900',
      creationTimestamp: '2024-06-01T10:00:00Z',
    },
    spec: {
      hosts,
      http: [
        {
          route: [{ destination: { host: REVIEWS, ...(port ? { port: { number: port } } : {}) } }],
        },
      ],
    },
  };
}

/** front/web and back/{reviews (2 ports), ratings, api}; istiod. */
function world(extra: { sidecars?: Sidecar[]; vs?: VirtualService[] } = {}): WorldObjects {
  return {
    pods: [
      makePod('istiod-1', 'istio-system', '10.1.0.2', { labels: { app: 'istiod' }, proxy: 'none' }),
      makePod('web-1', 'front', '10.1.1.1', { labels: { app: 'web' } }),
      makePod('reviews-1', 'back', '10.1.2.1', { labels: { app: 'reviews' } }),
    ],
    services: [
      makeService('istiod', 'istio-system', [{ port: 15010, name: 'grpc-xds' }], { app: 'istiod' }),
      makeService('web', 'front', [{ port: 8080, name: 'http' }], { app: 'web' }),
      makeService(
        'reviews',
        'back',
        [
          { port: 9080, name: 'http' },
          { port: 9090, name: 'http-admin' },
        ],
        { app: 'reviews' },
      ),
      makeService('ratings', 'back', [{ port: 9080, name: 'http' }], { app: 'ratings' }),
      makeService('api', 'back', [{ port: 80, name: 'http' }], { app: 'api' }),
    ],
    sidecars: extra.sidecars ?? [],
    virtualservices: extra.vs ?? [],
    destinationrules: [],
    serviceentries: [],
    endpointslices: [],
    configmaps: [],
  };
}

const pods = (w: WorldObjects) => (w.pods ?? []) as Pod[];
const meshed = (w: WorldObjects) =>
  pods(w).filter((p) => p.spec.containers.some((c) => c.name === 'istio-proxy'));

function report(w: WorldObjects, webCalls: string[]) {
  const observations: TrafficObservation[] = meshed(w).map((p) => ({
    source: 'envoy-stats',
    namespace: p.metadata.namespace ?? 'default',
    pod: p.metadata.name,
    available: true,
    hits: p.metadata.name === 'web-1' ? webCalls.map((cluster) => ({ cluster, count: 5 })) : [],
  }));
  return buildScopingReport({
    generatedAt: '2024-06-01T12:00:00Z',
    pods: pods(w),
    services: (w.services ?? []) as Service[],
    serviceEntries: (w.serviceentries ?? []) as ServiceEntry[],
    sidecars: (w.sidecars ?? []) as Sidecar[],
    destinationRules: (w.destinationrules ?? []) as DestinationRule[],
    virtualServices: (w.virtualservices ?? []) as VirtualService[],
    proxyCounts: meshed(w).map((p) => simCount(w, p)),
    observations,
    window: { start: '2024-06-01T00:00:00Z', end: '2024-06-01T12:00:00Z' },
  });
}

const webRow = (r: ReturnType<typeof report>) => r.workloads.find((x) => x.name === 'web-1');

describe('Scoping report with VirtualServices', () => {
  it('models the VirtualService destination a Sidecar does not import, as istiod counts it', () => {
    const narrow = [makeSidecar('default', 'front', ['./*', 'istio-system/*'])];
    const w = world({ sidecars: narrow, vs: [route('to-reviews', 'front', ['web'], 9080)] });
    const r = report(w, [`outbound|9080||${REVIEWS}`]);
    const web = webRow(r)!;
    // web:8080, istiod:15010, and reviews:9080 through the VirtualService (not 9090)
    expect(web.destinations.find((d) => d.host === REVIEWS)).toMatchObject({
      visibleNow: true,
      clusters: 1,
    });
    expect(web.cutOff).toEqual([]);
    expect(r.findings.filter((f) => f.code === 'MDX0306')).toEqual([]);
    const p = web.proxies[0]!;
    expect(p.clusters.modelled).toBe(p.measuredActive);
    const without = report(world({ sidecars: narrow }), [`outbound|9080||${REVIEWS}`]);
    expect(webRow(without)!.proxies[0]!.clusters.modelled).toBe(p.clusters.modelled - 1);
    expect(webRow(without)!.cutOff).toEqual([REVIEWS]);
  });

  it('a proposal that narrows egress keeps the VirtualService destination and counts it', () => {
    const vs = [route('to-reviews', 'front', [REVIEWS])];
    const w = world({ vs });
    const r = report(w, []);
    const proposal = r.generated.find((g) => g.namespace === 'front' && g.level === 'namespace')!;
    expect(proposal.hosts).toEqual(['./*', 'istio-system/*']);
    expect(proposal.warnings.map((x) => x.code)).toContain('MDX0309');
    expect(proposal.warnings.find((x) => x.code === 'MDX0309')?.message).toContain(
      `${REVIEWS} (VirtualService front/to-reviews)`,
    );
    // apply it and let the simulator's istiod count: the prediction is what the proxy reports
    const applied = world({ vs, sidecars: [parse(proposal.yaml) as Sidecar] });
    const web = pods(applied).find((p) => p.metadata.name === 'web-1')!;
    const predicted = webRow(r)!.proxies[0]!.clusters.predicted;
    expect(simCount(applied, web).active).toBe(predicted);
    // 5 bootstrap + 3 fixed + 1 inbound + web:8080 + istiod:15010 + reviews:9080,9090
    expect(predicted).toBe(5 + 3 + 1 + 1 + 1 + 2);
  });

  it('warns when a VirtualService routing observed calls would no longer be imported', () => {
    const vs = [route('reviews-routing', 'routing', [REVIEWS], 9080)];
    const r = report(world({ vs }), [`outbound|9080||${REVIEWS}`]);
    const proposal = r.generated.find((g) => g.namespace === 'front' && g.level === 'namespace')!;
    expect(proposal.hosts).toEqual(['./*', 'istio-system/*', 'back/*']);
    const lost = proposal.warnings.filter((x) => x.code === 'MDX0310');
    expect(lost).toHaveLength(1);
    expect(lost[0]?.message).toContain('routing/reviews-routing');
    expect(lost[0]?.message).toContain(`routing/${REVIEWS}`);
    expect(r.catalog.map((c) => c.code)).toEqual(expect.arrayContaining(['MDX0309', 'MDX0310']));
  });

  it('an egress host that only imports a VirtualService is not reported as matching nothing', () => {
    const sc = [makeSidecar('default', 'front', ['./*', 'edge/web.example.com'])];
    const vs = [route('alias', 'edge', ['web.example.com'])];
    const withVs = report(world({ sidecars: sc, vs }), []);
    expect(withVs.findings.filter((f) => f.code === 'MDX0303')).toEqual([]);
    const withoutVs = report(world({ sidecars: sc }), []);
    expect(
      withoutVs.findings.filter((f) => f.code === 'MDX0303').map((f) => f.evidence.host),
    ).toEqual(['edge/web.example.com']);
  });
});
