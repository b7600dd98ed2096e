import { describe, it, expect } from 'vitest';
import type { DestinationRule, Pod, Service, ServiceEntry } from '../../../lib/kube/types';
import { createMeshEmulator } from './index';
import {
  bookinfo,
  makeDestinationRule,
  makeService,
  makeSidecar,
  worldOf,
  type WorldObjects,
} from './testworld';

type Json = Record<string, unknown>;

function podNamed(w: WorldObjects, name: string): Pod {
  const p = (w.pods as Pod[]).find((x) => x.metadata.name === name);
  if (!p) throw new Error(name);
  return p;
}

function dynamicNames(w: WorldObjects, pod: string): string[] {
  const mesh = createMeshEmulator(worldOf(w));
  const r = mesh.podHttp(
    podNamed(w, pod),
    15000,
    '/config_dump',
    new URLSearchParams('resource=dynamic_active_clusters&mask=cluster.name'),
  );
  expect(r.status).toBe(200);
  const body = JSON.parse(r.body) as { configs: { cluster: Json }[] };
  return body.configs.map((c) => String(c.cluster.name));
}

/** Outbound cluster count computed straight from the world objects (ports, plus subsets per port). */
function expectedOutbound(services: Service[], subsetsByHost: Record<string, number>): number {
  return services.reduce((n, s) => {
    const host = `${s.metadata.name}.${s.metadata.namespace}.svc.cluster.local`;
    const ports = s.spec.ports?.length ?? 0;
    return n + ports * (1 + (subsetsByHost[host] ?? 0));
  }, 0);
}

const REVIEWS = 'reviews.default.svc.cluster.local';

describe('cluster generation', () => {
  it('gives an unscoped sidecar every service port, DR subsets, inbound and fixed clusters', () => {
    const w = bookinfo();
    const names = dynamicNames(w, 'productpage-v1-abc');
    const outbound = expectedOutbound(w.services as Service[], { [REVIEWS]: 3 });
    // 3 fixed (BlackHole, Passthrough, InboundPassthrough) + 1 inbound (productpage 9080)
    expect(names.length).toBe(outbound + 3 + 1);
    expect(names).toContain(`outbound|9080||${REVIEWS}`);
    expect(names).toContain(`outbound|9080|v3|${REVIEWS}`);
    expect(names).toContain('outbound|15012||istiod.istio-system.svc.cluster.local');
    expect(names).toContain('inbound|9080||');
    expect(names).toEqual(
      expect.arrayContaining([
        'BlackHoleCluster',
        'PassthroughCluster',
        'InboundPassthroughCluster',
      ]),
    );
  });

  it('narrows to the namespace with a ./* namespace default', () => {
    const w = bookinfo();
    w.sidecars = [makeSidecar('default', 'default', ['./*'])];
    const names = dynamicNames(w, 'productpage-v1-abc').filter((n) => n.startsWith('outbound|'));
    expect(names.sort()).toEqual(
      [
        `outbound|9080||productpage.default.svc.cluster.local`,
        `outbound|9080||${REVIEWS}`,
        ...['v1', 'v2', 'v3'].map((s) => `outbound|9080|${s}|${REVIEWS}`),
      ].sort(),
    );
  });

  it('strips all outbound clusters with ~/*', () => {
    const w = bookinfo();
    w.sidecars = [makeSidecar('default', 'default', ['~/*'])];
    expect(dynamicNames(w, 'productpage-v1-abc').sort()).toEqual([
      'BlackHoleCluster',
      'InboundPassthroughCluster',
      'PassthroughCluster',
      'inbound|9080||',
    ]);
  });

  it('a workload-specific Sidecar beats the namespace default', () => {
    const w = bookinfo();
    w.sidecars = [
      makeSidecar('default', 'default', ['~/*']),
      makeSidecar('pp', 'default', ['prod/*'], { app: 'productpage' }),
    ];
    expect(dynamicNames(w, 'productpage-v1-abc').filter((n) => n.startsWith('outbound|'))).toEqual([
      'outbound|9080||ratings.prod.svc.cluster.local',
    ]);
    expect(dynamicNames(w, 'reviews-v1-aaa').filter((n) => n.startsWith('outbound|'))).toEqual([]);
  });

  it('gateways see every service even under a mesh-wide ~/* default, and have no inbound clusters', () => {
    const w = bookinfo();
    w.sidecars = [makeSidecar('default', 'istio-system', ['~/*'])];
    const names = dynamicNames(w, 'istio-ingressgateway-5c6b');
    expect(names.filter((n) => n.startsWith('outbound|')).length).toBe(
      expectedOutbound(w.services as Service[], { [REVIEWS]: 3 }),
    );
    expect(names.filter((n) => n.startsWith('inbound|'))).toEqual([]);
    expect(names).not.toContain('InboundPassthroughCluster');
    // no original-dst listeners on a gateway, so no PassthroughCluster either (cluster.go)
    expect(names.filter((n) => !n.includes('|'))).toEqual(['BlackHoleCluster']);
    expect(dynamicNames(w, 'productpage-v1-abc').filter((n) => n.startsWith('outbound|'))).toEqual(
      [],
    );
  });

  it('multiplies clusters by DR subsets per port', () => {
    const w = bookinfo();
    (w.services as Service[]).push(
      makeService(
        'details',
        'default',
        [
          { port: 9080, name: 'http' },
          { port: 9443, name: 'https' },
        ],
        { app: 'details' },
      ),
    );
    const dr: DestinationRule = {
      kind: 'DestinationRule',
      metadata: { name: 'details', namespace: 'default', resourceVersion: '999' },
      spec: { host: 'details.default.svc.cluster.local', subsets: [{ name: 'a' }, { name: 'b' }] },
    };
    w.destinationrules?.push(dr);
    const details = dynamicNames(w, 'productpage-v1-abc').filter((n) =>
      n.endsWith('|details.default.svc.cluster.local'),
    );
    expect(details.length).toBe(2 * 3);
  });

  it('names the inbound passthrough cluster InboundPassthroughClusterIpv4 for old proxies', () => {
    const w = bookinfo();
    const pod = podNamed(w, 'productpage-v1-abc');
    const proxy = pod.spec.containers.find((c) => c.name === 'istio-proxy');
    if (proxy) proxy.image = 'docker.io/istio/proxyv2:1.18.2';
    expect(dynamicNames(w, 'productpage-v1-abc')).toContain('InboundPassthroughClusterIpv4');
  });

  it('recomputes when a service is added (cache invalidation)', () => {
    const w = bookinfo();
    const mesh = createMeshEmulator(worldOf(w));
    const pod = podNamed(w, 'productpage-v1-abc');
    const count = () =>
      JSON.parse(
        mesh.podHttp(
          pod,
          15000,
          '/config_dump',
          new URLSearchParams('resource=dynamic_active_clusters'),
        ).body,
      ).configs.length as number;
    const before = count();
    (w.services as Service[]).push(
      makeService('new', 'default', [
        { port: 80, name: 'http' },
        { port: 81, name: 'tcp' },
      ]),
    );
    expect(count()).toBe(before + 2);
  });

  it('builds no outbound cluster for UDP ports or ExternalName aliases', () => {
    const w = bookinfo();
    const dns = makeService('dns', 'default', [
      { port: 53, name: 'dns' },
      { port: 5353, name: 'dns-tcp' },
    ]);
    const udp = dns.spec.ports?.[0];
    if (udp) udp.protocol = 'UDP';
    const ext = makeService('payments', 'default', [{ port: 443, name: 'https' }]);
    ext.spec = {
      ...ext.spec,
      type: 'ExternalName',
      externalName: 'pay.example.com',
    } as Service['spec'];
    (w.services as Service[]).push(dns, ext);
    const names = dynamicNames(w, 'productpage-v1-abc');
    expect(names).toContain('outbound|5353||dns.default.svc.cluster.local');
    expect(names).not.toContain('outbound|53||dns.default.svc.cluster.local');
    expect(names.filter((n) => n.includes('payments.default'))).toEqual([]);
  });

  it('drops DNS subset clusters that select no endpoint, and makes PASSTHROUGH subsets ORIGINAL_DST', () => {
    const w = bookinfo();
    const entry: ServiceEntry = {
      kind: 'ServiceEntry',
      metadata: { name: 'api', namespace: 'default', resourceVersion: '900' },
      spec: {
        hosts: ['api.example.com'],
        ports: [{ number: 443, name: 'tls', protocol: 'TLS' }],
        resolution: 'DNS',
        endpoints: [{ address: 'a.example.com', labels: { region: 'eu' } }],
      } as ServiceEntry['spec'],
    };
    w.serviceentries = [entry];
    const rule = makeDestinationRule('api', 'default', 'api.example.com', []);
    rule.spec.subsets = [
      { name: 'eu', labels: { region: 'eu' } },
      { name: 'us', labels: { region: 'us' } },
      {
        name: 'direct',
        labels: { region: 'eu' },
        trafficPolicy: { loadBalancer: { simple: 'PASSTHROUGH' } },
      },
    ];
    w.destinationrules = [...(w.destinationrules ?? []), rule];
    const mesh = createMeshEmulator(worldOf(w));
    const r = mesh.podHttp(
      podNamed(w, 'productpage-v1-abc'),
      15000,
      '/config_dump',
      new URLSearchParams('resource=dynamic_active_clusters&mask=cluster.name,cluster.type'),
    );
    const body = JSON.parse(r.body) as { configs: { cluster: { name: string; type?: string } }[] };
    const api = body.configs
      .map((c) => c.cluster)
      .filter((c) => c.name.endsWith('|api.example.com'))
      .map((c) => `${c.name} ${c.type}`);
    expect(api.sort()).toEqual([
      'outbound|443|direct|api.example.com ORIGINAL_DST',
      'outbound|443|eu|api.example.com STRICT_DNS',
      'outbound|443||api.example.com STRICT_DNS',
    ]);
  });

  it("takes a Sidecar's ingress listeners as the inbound clusters when it declares any", () => {
    const w = bookinfo();
    const sc = makeSidecar('productpage', 'default', ['./*'], { app: 'productpage' });
    (sc.spec as { ingress?: unknown }).ingress = [
      {
        port: { number: 9443, protocol: 'HTTPS', name: 'https' },
        defaultEndpoint: '127.0.0.1:8443',
      },
    ];
    w.sidecars = [sc];
    const names = dynamicNames(w, 'productpage-v1-abc');
    expect(names.filter((n) => n.startsWith('inbound|'))).toEqual(['inbound|9443||']);
  });
});
