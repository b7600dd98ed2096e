import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeTransport } from '../../server/kube/transport';
import { gatherScopingInput, type GatherDeps } from '../../server/screens/scoping/gather';
import { startSimulator, type RunningSimulator } from '../../server/sim/index';
import {
  prometheusAvailable,
  startPrometheus,
  waitForQuery,
  type RunningPrometheus,
} from '../../test-support/prometheus';

/**
 * Scoping at fleet scale: with Prometheus holding every proxy's Envoy series, the gather takes
 * its counts from there and reads only one proxy per workload for what Prometheus cannot say.
 */
const hasPrometheus = prometheusAvailable();

let sim: RunningSimulator;
let prom: RunningPrometheus;
let deps: GatherDeps;

async function simRequests(): Promise<Record<string, number>> {
  const info = (await (await fetch(`http://127.0.0.1:${sim.port}/_sim/info`)).json()) as {
    requests: Record<string, number>;
  };
  return info.requests;
}

describe.runIf(hasPrometheus)('scoping gather with the fleet from Prometheus', () => {
  beforeAll(async () => {
    sim = await startSimulator({
      scenario: 'demo',
      port: 0,
      clock: { fixed: new Date('2026-11-01T12:00:00Z') },
      api: { dialTimeoutMs: 300 },
    });
    const kc = new KubeConfig();
    kc.loadFromString(sim.kubeconfigYaml);
    prom = await startPrometheus({
      hostPort: `127.0.0.1:${sim.port}`,
      metricsPath: '/_sim/envoy/metrics',
      scrapeSeconds: 1,
    });
    deps = {
      transport: new KubeTransport(kc, { qps: 500, burst: 500, proxyConcurrency: 16 }),
      kc,
      istioNamespace: 'istio-system',
      concurrency: 16,
      timeoutMs: 3_000,
      logTailLines: 200,
    };
    const body = await (await fetch(`http://127.0.0.1:${sim.port}/_sim/envoy/metrics`)).text();
    const n = body
      .split('\n')
      .filter((l) => l.startsWith('envoy_cluster_manager_active_clusters{')).length;
    await waitForQuery(
      prom,
      'count(envoy_cluster_manager_active_clusters)',
      (r) => Number((r[0] as { value?: [number, string] } | undefined)?.value?.[1]) === n,
    );
  }, 60_000);

  afterAll(async () => {
    deps?.transport.close();
    await prom?.stop();
    await sim?.close();
  });

  it('takes every count from Prometheus and samples one proxy per workload', async () => {
    const direct = await gatherScopingInput(deps);
    const before = await simRequests();
    const fromProm = await gatherScopingInput({ ...deps, prometheusUrl: prom.url });
    const after = await simRequests();
    const delta = (k: string) => (after[k] ?? 0) - (before[k] ?? 0);

    const counted = direct.input.proxyCounts.filter((c) => c.active !== null);
    expect(counted.length).toBeGreaterThan(10);
    // the same active counts, now without a single :15090 scrape
    for (const c of direct.input.proxyCounts) {
      const p = fromProm.input.proxyCounts.find(
        (x) => x.namespace === c.namespace && x.pod === c.pod,
      );
      expect(p?.active, `${c.namespace}/${c.pod}`).toBe(c.active);
    }
    expect(fromProm.gather.countsFromPrometheus).toBe(counted.length);
    expect(direct.gather.countsFromPrometheus).toBe(0);
    // pods/proxy only for istiod's push health (its :15014/metrics), none to a sidecar
    expect(fromProm.push.istiods.length).toBeGreaterThan(0);
    expect(delta('proxy pods/proxy')).toBe(fromProm.push.istiods.length);
    // usage reads (Envoy /stats over port-forward, access logs) for one proxy per workload only
    const workloads = new Set(
      counted.map((c) => `${c.namespace}/${c.pod.replace(/-[a-z0-9]+-[a-z0-9]+$/, '')}`),
    );
    expect(delta('portforward pods/portforward')).toBeLessThanOrEqual(workloads.size);
    expect(delta('portforward pods/portforward')).toBeLessThan(counted.length);
    expect(delta('log pods/log')).toBeLessThanOrEqual(workloads.size);
    // a replica with the sample's count shares its measured service split
    const shared = fromProm.input.proxyCounts.filter((c) => c.service !== null);
    expect(shared.length).toBeGreaterThan(workloads.size / 2);
    for (const c of shared) {
      const d = direct.input.proxyCounts.find(
        (x) => x.namespace === c.namespace && x.pod === c.pod,
      );
      expect(c.service, `${c.namespace}/${c.pod}`).toBe(d?.service);
    }
  });
});
