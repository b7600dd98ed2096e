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
});
