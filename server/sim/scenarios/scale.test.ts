import { describe, it, expect } from 'vitest';
import type { Pod, Service } from '../../../lib/kube/types';
import { scale, scaleTables } from './scale';
import { harness } from './testing/fakes';

describe('scale', () => {
  it('builds exactly N workload pods and M services (plus istio-system), all Ready with unique IPs', () => {
    const h = harness('scale', { pods: '5000', services: '500' });
    scale.start(h.ctx);
    const pods = h.store.list<Pod>('pods').filter((p) => p.metadata.namespace !== 'istio-system');
    const svcs = h.store
      .list<Service>('services')
      .filter((s) => s.metadata.namespace !== 'istio-system');
    expect(pods).toHaveLength(5000);
    expect(svcs).toHaveLength(500);
    expect(
      h.store.list('namespaces').filter((n) => n.metadata.name.startsWith('scale-')),
    ).toHaveLength(50);
    expect(new Set(pods.map((p) => p.status?.podIP)).size).toBe(5000);
    expect(
      pods.every((p) => p.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True'),
    ).toBe(true);
  });

  it('defaults to 2000 pods / 500 services and spreads uneven counts', () => {
    const tables = scaleTables(2000, 500);
    expect(tables).toHaveLength(50);
    expect(tables.flatMap((t) => t.workloads).reduce((n, w) => n + w.replicas, 0)).toBe(2000);
    const uneven = scaleTables(7, 3);
    expect(uneven.flatMap((t) => t.workloads).map((w) => w.replicas)).toEqual([3, 2, 2]);
    const h = harness('scale', { pods: 'junk' });
    scale.start(h.ctx);
    expect(
      h.store.list('pods').filter((p) => p.metadata.namespace !== 'istio-system'),
    ).toHaveLength(2000);
  });

  it('puts a sidecar on only `proxies` pods, the rest in namespaces without injection', () => {
    const h = harness('scale', { pods: '500', services: '20', proxies: '200' });
    scale.start(h.ctx);
    const pods = h.store.list<Pod>('pods').filter((p) => p.metadata.namespace !== 'istio-system');
    expect(pods).toHaveLength(500);
    const proxied = pods.filter((p) =>
      [...(p.spec?.containers ?? []), ...(p.spec?.initContainers ?? [])].some(
        (c) => c.name === 'istio-proxy',
      ),
    );
    expect(proxied).toHaveLength(200);
    const namespaces = h.store
      .list('namespaces')
      .filter((n) => n.metadata.name.startsWith('scale-'));
    const injected = namespaces.filter((n) => n.metadata.labels?.['istio-injection'] === 'enabled');
    expect(injected.map((n) => n.metadata.name)).toEqual(['scale-000']);
    // every pod without a proxy is in a namespace without injection or opts out
    for (const p of pods.filter((x) => !proxied.includes(x))) {
      const ns = p.metadata.namespace ?? '';
      const optOut = p.metadata.annotations?.['sidecar.istio.io/inject'] === 'false';
      expect(injected.some((n) => n.metadata.name === ns) ? optOut : true).toBe(true);
    }
  });

  it('cuts at whole workloads, and a cut inside a namespace opts the rest out', () => {
    const tables = scaleTables(100, 20, 37);
    const meshed = tables
      .flatMap((t) => t.workloads)
      .filter((w) => w.mode !== 'none')
      .reduce((n, w) => n + w.replicas, 0);
    expect(meshed).toBe(35);
    expect(tables[0]?.labels).toEqual({ 'istio-injection': 'enabled' });
    expect(tables[0]?.workloads[7]?.annotations).toEqual({ 'sidecar.istio.io/inject': 'false' });
    expect(tables[1]?.labels).toEqual({});
    expect(tables[1]?.workloads[0]?.annotations).toBeUndefined();
    // without proxies every pod keeps its sidecar, as before
    expect(
      scaleTables(100, 20)
        .flatMap((t) => t.workloads)
        .every((w) => w.mode !== 'none'),
    ).toBe(true);
  });
});
