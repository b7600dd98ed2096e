import { describe, expect, it } from 'vitest';
import { simOnly } from '../../test-support/simulator';
import { ProxyDetailSchema } from '../../lib/api/proxies';
import { buildProxyDetail } from '../../lib/proxies/detail';
import { ADMIN_PATHS, readProxyDetailParts, readRawClusters } from '../../server/envoy/admin';
import { meshedPods, simClusterNames } from './sim-truth';
import { podKeyOfObject } from '../../lib/refs/pod-ref';

const demo = simOnly('demo');

function runningProxy() {
  const pod = meshedPods(demo.sim).find(
    (p) =>
      p.status?.podIP &&
      !p.metadata.deletionTimestamp &&
      (p.status.containerStatuses ?? []).some((c) => c.name === 'istio-proxy' && c.state?.running),
  );
  if (!pod) throw new Error('the demo scenario has no running proxy');
  return pod;
}

describe('per-proxy detail over port-forward to the simulated Envoy admin', () => {
  it('gives the istioctl cluster table of exactly the clusters the proxy has', async () => {
    const pod = runningProxy();
    const ns = pod.metadata.namespace ?? 'default';
    const parts = await readProxyDetailParts(demo.kc, ns, pod.metadata.name, 10_000);
    const detail = ProxyDetailSchema.parse(buildProxyDetail(parts));
    expect(detail.errors).toEqual([]);
    const truth = simClusterNames(demo.sim, pod);
    expect(detail.clusters.map((c) => c.name).sort()).toEqual([...truth].sort());
    expect(detail.summary.service).toBe(truth.filter((n) => n.includes('|')).length);
    expect(detail.summary.static).toBe(5);
    expect(detail.listeners?.dynamic ?? 0).toBeGreaterThan(0);
    expect(detail.routes).not.toBeNull();
    expect(detail.usage.available).toBe(true);
    // used/unused are over outbound service clusters only (xds-grpc is busy but not a destination)
    const outbound = detail.clusters.filter((c) => c.service && c.direction === 'outbound');
    expect((detail.usage.used ?? NaN) + (detail.usage.unused ?? NaN)).toBe(outbound.length);
    expect(detail.usage.used).toBe(outbound.filter((c) => c.used === true).length);
    // outbound service clusters are counted per destination namespace
    expect(detail.byNamespace.reduce((a, b) => a + b.clusters, 0)).toBe(outbound.length);
  });

  it('never asks for secrets: every config_dump read names a resource', () => {
    for (const path of Object.values(ADMIN_PATHS)) {
      if (!path.startsWith('/config_dump')) continue;
      expect(path).toMatch(/[?&]resource=(dynamic|static)_/);
      expect(path).not.toMatch(/secret/i);
    }
  });

  it('downloads the raw cluster sections', async () => {
    const pod = runningProxy();
    const raw = JSON.parse(
      await readRawClusters(
        demo.kc,
        pod.metadata.namespace ?? 'default',
        pod.metadata.name,
        10_000,
      ),
    ) as {
      dynamic_active_clusters: { configs: unknown[] };
      static_clusters: { configs: unknown[] };
    };
    const total = raw.dynamic_active_clusters.configs.length + raw.static_clusters.configs.length;
    expect(total).toBe(simClusterNames(demo.sim, pod).length);
  });

  it('an unreachable proxy gives errors per part, not a crash', async () => {
    const pod = runningProxy();
    const key = podKeyOfObject(pod);
    demo.sim.faults.unreachablePods.add(key);
    try {
      const parts = await readProxyDetailParts(
        demo.kc,
        pod.metadata.namespace ?? 'default',
        pod.metadata.name,
        1_500,
      );
      const detail = buildProxyDetail(parts);
      expect(detail.clusters).toEqual([]);
      expect(detail.errors.map((e) => e.part).sort()).toEqual([
        'clusters',
        'listeners',
        'routes',
        'usage',
      ]);
    } finally {
      demo.sim.faults.unreachablePods.clear();
    }
  });
});
