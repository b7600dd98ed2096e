import { describe, expect, it } from 'vitest';
import { GET as proxyGet } from '../../app/api/proxies/[namespace]/[name]/route';
import { ProxyDetailSchema, type ProxyDetail } from '../../lib/api/proxies';
import { podKeyOfObject, podPath } from '../../lib/refs/pod-ref';
import { meshedPods } from '../proxies/sim-truth';
import { url, useEdgeCluster } from './support';

/**
 * A proxy's detail that could not be read (the proxy does not answer, or answers after the
 * proxy timeout) has no totals: through its route, every figure read from the proxy is unknown
 * with its reason, never a 0.
 */
const cluster = useEdgeCluster('proxy-unknowns');

function runningProxy() {
  const pod = meshedPods(cluster.sim).find(
    (p) =>
      p.status?.podIP &&
      !p.metadata.deletionTimestamp &&
      (p.status.containerStatuses ?? []).some((c) => c.name === 'istio-proxy' && c.state?.running),
  );
  if (!pod) throw new Error('the scenario has no running proxy');
  return {
    ns: pod.metadata.namespace ?? 'default',
    name: pod.metadata.name,
    key: podKeyOfObject(pod),
  };
}

async function detail(ns: string, name: string): Promise<ProxyDetail> {
  const res = await proxyGet(new Request(url(`/api/proxies/${podPath({ namespace: ns, name })}`)), {
    params: Promise.resolve({ namespace: ns, name }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return ProxyDetailSchema.parse(await res.json());
}

function expectUnknown(d: ProxyDetail) {
  expect(d.errors.map((e) => e.part).sort()).toEqual(['clusters', 'listeners', 'routes', 'usage']);
  const why = d.errors.find((e) => e.part === 'clusters')?.message ?? '';
  expect(why).not.toBe('');
  expect(d.summary).toMatchObject({
    total: null,
    static: null,
    dynamic: null,
    service: null,
    nonService: null,
    warming: null,
    byType: null,
    byDirection: null,
  });
  expect(d.summary.unknown).toContain(why);
  expect(d.usage).toMatchObject({ available: false, used: null, unused: null, unmatched: null });
  expect(d.usage.unknown).toBeTruthy();
  expect(d.listeners).toBeNull();
  expect(d.routes).toBeNull();
}

describe("a proxy's detail that could not be read", () => {
  it('an unreachable proxy: every figure unknown with its reason', async () => {
    const p = runningProxy();
    cluster.sim.faults.unreachablePods.add(p.key);
    try {
      expectUnknown(await detail(p.ns, p.name));
    } finally {
      cluster.sim.faults.unreachablePods.clear();
    }
    // read again once it answers: figures, no reason
    const ok = await detail(p.ns, p.name);
    expect(ok.summary.total).toBeGreaterThan(0);
    expect(ok.summary.unknown).toBeNull();
  }, 60_000);

  it('a proxy slower than the proxy timeout: the same', async () => {
    const p = runningProxy();
    cluster.sim.faults.slowPods.set(p.key, 15_000);
    try {
      expectUnknown(await detail(p.ns, p.name));
    } finally {
      cluster.sim.faults.slowPods.clear();
    }
  }, 60_000);
});
