import { describe, it, expect } from 'vitest';
import { SYSTEM_NAMESPACES } from '../world/build/world';
import type { DestinationRule, Pod, Service, Sidecar } from '../../../lib/kube/types';
import { portNaming } from './port-naming';
import { unscopedMesh } from './unscoped-mesh';
import { demo } from './demo';
import { OPS_NAMESPACE } from './ops';
import { harness } from './testing/fakes';
import { workloadNameKey } from '../../../lib/refs/workload-ref';

describe('port-naming', () => {
  const h = harness('port-naming');
  portNaming.start(h.ctx);
  h.clock.advance(30_000);
  const svc = (n: string) => h.store.get<Service>('services', 'ports', n);

  it('has bad, good, appProtocol, multiplexed and server-first ports', () => {
    expect(
      ['web-legacy', 'numbers', 'suffix-wrong'].map((n) => svc(n)?.spec.ports?.[0]?.name),
    ).toEqual(['web', '8080', 'foo-http']);
    expect(svc('web-good')?.spec.ports?.[0]?.name).toBe('http-web');
    expect(svc('grpc-api')?.spec.ports?.[0]?.appProtocol).toBe('grpc');
    const mux = svc('mux')?.spec.ports ?? [];
    expect(mux.map((p) => p.targetPort)).toEqual([8080, 8080]);
    expect(mux.map((p) => p.name)).toEqual(['http', 'tcp-raw']);
    expect(svc('orders-db')?.spec.ports?.[0]).toMatchObject({ name: 'db', port: 3306 });
  });

  it('rewrites probes except on the opted-out pod and logs PassthroughCluster calls', () => {
    const pods = h.store.list<Pod>('pods').filter((p) => p.metadata.namespace === 'ports');
    const legacy = pods.find((p) => p.metadata.labels?.app === 'web-legacy');
    expect(legacy?.spec.containers[0]?.readinessProbe?.httpGet?.path).toBe(
      '/app-health/web-legacy/readyz',
    );
    const mux = pods.find((p) => p.metadata.labels?.app === 'mux');
    expect(mux?.metadata.annotations?.['sidecar.istio.io/rewriteAppHTTPProbers']).toBe('false');
    expect(mux?.spec.containers[0]?.readinessProbe?.httpGet?.port).toBe(8080);
    const fetcher = pods.find((p) => p.metadata.labels?.app === 'fetcher');
    const lines = h.logs
      .read('ports', fetcher?.metadata.name ?? '', 'istio-proxy')
      .map((l) => l.line);
    expect(lines.some((l) => / PassthroughCluster /.test(l))).toBe(true);
  });
});

describe('unscoped-mesh', () => {
  const h = harness('unscoped-mesh');
  unscopedMesh.start(h.ctx);
  it('has 40 namespaces, one namespace-default Sidecar, DestinationRules with 2 subsets, istiod and a gateway', () => {
    const all = h.store.list('namespaces').map((n) => n.metadata.name);
    // every cluster has its system namespaces, empty here
    expect(all).toEqual(expect.arrayContaining([...SYSTEM_NAMESPACES]));
    const nss = h.store
      .list('namespaces')
      .filter(
        (n) => n.metadata.name !== 'istio-system' && !SYSTEM_NAMESPACES.includes(n.metadata.name),
      );
    expect(nss).toHaveLength(40);
    const sidecars = h.store.list<Sidecar>('sidecars');
    expect(sidecars).toHaveLength(1);
    expect(sidecars[0]?.spec.workloadSelector).toBeUndefined();
    expect(sidecars[0]?.spec.egress?.[0]?.hosts).toEqual(['./*', 'istio-system/*']);
    const drs = h.store.list<DestinationRule>('destinationrules');
    expect(drs.length).toBeGreaterThan(3);
    expect(drs.every((d) => d.spec.subsets?.length === 2)).toBe(true);
    const pods = h.store.list<Pod>('pods');
    const gw = pods.find((p) => p.metadata.labels?.istio === 'ingressgateway');
    expect(gw?.spec.containers.map((c) => c.name)).toEqual(['istio-proxy']);
    expect(gw?.spec.containers[0]?.args?.slice(0, 2)).toEqual(['proxy', 'router']);
    const istiod = pods.find((p) => p.metadata.labels?.app === 'istiod');
    expect(istiod?.spec.containers[0]?.ports?.some((p) => p.containerPort === 15014)).toBe(true);
    const perNs = new Map<string, number>();
    for (const s of h.store.list<Service>('services'))
      perNs.set(s.metadata.namespace ?? '', (perNs.get(s.metadata.namespace ?? '') ?? 0) + 1);
    for (const n of nss) expect(perNs.get(n.metadata.name)).toBeGreaterThanOrEqual(2);
    expect(h.logs.lines.some((l) => l.line.includes('outbound|'))).toBe(true);
  });
});

describe('demo', () => {
  it('composes about 13 namespaces, 75 workloads and 215 pods, all sidecar namespaces labelled', () => {
    const h = harness('demo');
    demo.start(h.ctx);
    const nss = h.store
      .list('namespaces')
      .filter((n) => !SYSTEM_NAMESPACES.includes(n.metadata.name));
    expect(nss.length).toBeGreaterThanOrEqual(9);
    expect(nss.length).toBeLessThanOrEqual(16);
    // ambient namespaces are enrolled by istio.io/dataplane-mode instead of injection; istio-system
    // and ops (a CronJob's pods, an old pod without spec) are not injected
    const sidecarNs = nss.filter(
      (x) =>
        !['istio-system', OPS_NAMESPACE].includes(x.metadata.name) &&
        x.metadata.labels?.['istio.io/dataplane-mode'] !== 'ambient',
    );
    expect(sidecarNs.length).toBeLessThan(nss.length - 1);
    for (const n of sidecarNs) {
      expect(n.metadata.labels?.['istio-injection']).toBe('enabled');
    }
    const pods = h.store.list<Pod>('pods');
    const workloads = new Set(
      pods.map((p) => workloadNameKey(p.metadata.namespace ?? '', p.metadata.labels?.app ?? '')),
    );
    expect(workloads.size).toBeGreaterThanOrEqual(50);
    expect(pods.length).toBeGreaterThanOrEqual(170);
    expect(pods.length).toBeLessThanOrEqual(260);
  });
});
