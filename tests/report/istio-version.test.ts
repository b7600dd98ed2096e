import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pod } from '../../lib/kube/types';
import { scrapeProxyStats } from '../../server/envoy/scrape';
import { KubeTransport } from '../../server/kube/transport';
import { startSimulator, type RunningSimulator } from '../../server/sim/index';
import { podKey } from '../../lib/refs/pod-ref';

let sim: RunningSimulator;
let transport: KubeTransport;

beforeAll(async () => {
  sim = await startSimulator({
    scenario: 'startup-race',
    clock: { fixed: new Date('2026-11-01T12:00:00Z') },
  });
  const kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfigYaml);
  transport = new KubeTransport(kc);
});
afterAll(async () => {
  transport.close();
  await sim.close();
});

/** The tag of the istio-proxy image, read straight from the pod spec. */
function proxyImageTag(pod: Pod): string | undefined {
  const c = [...(pod.spec.initContainers ?? []), ...pod.spec.containers].find(
    (x) => x.name === 'istio-proxy',
  );
  return c?.image?.split('@')[0]?.split(':').pop();
}

describe('Istio version of each proxy, read from its :15090 scrape (the Proxies "Istio" column)', () => {
  it('every running proxy reports istio_build with its image tag through pods/proxy', async () => {
    const res = await fetch(`${sim.url}/api/v1/pods`);
    const pods = ((await res.json()) as { items: Pod[] }).items.filter(
      (p) => proxyImageTag(p) !== undefined && p.status?.podIP,
    );
    expect(pods.length).toBeGreaterThan(0);
    for (const pod of pods) {
      const ns = pod.metadata.namespace ?? 'default';
      const out = await scrapeProxyStats(transport, ns, pod.metadata.name, 5_000);
      expect(out.ok, podKey(ns, pod.metadata.name)).toBe(true);
      if (out.ok) expect(out.stats.istioVersion).toBe(proxyImageTag(pod));
    }
  });
});
