import http from 'node:http';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  indexTraffic,
  OUTBOUND_CATCH_ALL,
  type WorkloadTraffic,
} from '../../lib/scoping/observations';
import type { ObservationSource } from '../../lib/scoping/types';
import { sidecarWorkloads } from '../../lib/scoping/workloads';
import { KubeTransport } from '../../server/kube/transport';
import { gatherScopingInput, type GatherDeps } from '../../server/screens/scoping/gather';
import { startSimulator, type RunningSimulator } from '../../server/sim/index';
import {
  requirePrometheus,
  startPrometheus,
  waitForQuery,
  type RunningPrometheus,
} from '../../test-support/prometheus';
import { podKey } from '../../lib/refs/pod-ref';
import {
  GATHER_GUARD_MS,
  NO_DEADLINE_FOR_COMPLETENESS,
  NO_PROXY_TIMEOUT_FOR_COMPLETENESS,
} from '../../test-support/deadlines';

/**
 * Scoping at fleet scale: with Prometheus holding every proxy's Envoy and Istio series, the gather
 * takes its counts and each workload's destinations from there and reads no sidecar at all.
 */
requirePrometheus();

let sim: RunningSimulator;
let prom: RunningPrometheus;
let deps: GatherDeps;

async function simRequests(): Promise<Record<string, number>> {
  const info = (await (await fetch(`http://127.0.0.1:${sim.port}/_sim/info`)).json()) as {
    requests: Record<string, number>;
  };
  return info.requests;
}

describe('scoping gather with the fleet from Prometheus', () => {
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
      // the direct gathers are compared proxy by proxy: none may time out on a busy machine
      timeoutMs: NO_PROXY_TIMEOUT_FOR_COMPLETENESS,
      deadlineMs: NO_DEADLINE_FOR_COMPLETENESS,
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
  }, GATHER_GUARD_MS);

  afterAll(async () => {
    deps?.transport.close();
    await prom?.stop();
    await sim?.close();
  });

  it('takes every count and every destination from Prometheus, reading no sidecar', async () => {
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
      expect(p?.active, podKey(c.namespace, c.pod)).toBe(c.active);
    }
    expect(fromProm.gather.countsFromPrometheus).toBe(counted.length);
    expect(direct.gather.countsFromPrometheus).toBe(0);
    // pods/proxy only for istiod's push health (its :15014/metrics), none to a sidecar; no
    // usage read either: Prometheus holds every workload's istio_build and request series
    expect(fromProm.push.istiods.length).toBeGreaterThan(0);
    expect(delta('proxy pods/proxy')).toBe(fromProm.push.istiods.length);
    expect(delta('portforward pods/portforward')).toBe(0);
    expect(delta('log pods/log')).toBe(0);
    expect(fromProm.gather.sources.find((x) => x.source === 'envoy-stats')?.asked).toBe(0);

    // each workload's destinations from istio_requests_total are those its proxies' own
    // per-cluster counters show (Envoy /stats, read directly)
    const workloads = sidecarWorkloads(direct.input.pods);
    const directIdx = indexTraffic(direct.input.observations, workloads);
    const promIdx = indexTraffic(fromProm.input.observations, workloads);
    const hosts = (t: WorkloadTraffic | undefined, source: ObservationSource) =>
      [...(t?.destinations.values() ?? [])]
        .filter((d) => (d.counts[source] ?? 0) > 0 && !OUTBOUND_CATCH_ALL.has(d.host))
        .map((d) => d.host)
        .sort();
    let calling = 0;
    const countedPods = new Set(counted.map((c) => podKey(c.namespace, c.pod)));
    for (const w of workloads) {
      // a workload without a running proxy has no series and was read by nobody
      if (!w.pods.some((p) => countedPods.has(podKey(w.namespace, p.metadata.name)))) continue;
      const seen = hosts(directIdx.byWorkload.get(w.key), 'envoy-stats');
      if (seen.length > 0) calling++;
      const p = promIdx.byWorkload.get(w.key);
      expect(p?.sources.find((x) => x.source === 'prometheus')?.available, w.key).toBe(true);
      expect(hosts(p, 'prometheus'), w.key).toEqual(seen);
    }
    expect(calling).toBeGreaterThan(2);
    expect(promIdx.unattributed).toBe(0);
  });

  it('names why Prometheus gave no counts, and reads each proxy instead', async () => {
    // nothing listens on port 1: refused at once
    const down = await gatherScopingInput({ ...deps, prometheusUrl: 'http://127.0.0.1:1' });
    expect(down.gather.countsFromPrometheus).toBe(0);
    expect(down.gather.countsPrometheusError).toMatch(
      /Prometheus at http:\/\/127\.0\.0\.1:1 not reachable/,
    );
    expect(down.gather.countsMeasured).toBeGreaterThan(10);
    const up = await gatherScopingInput({ ...deps, prometheusUrl: prom.url });
    expect(up.gather.countsPrometheusError).toBeNull();
  });

  it('waits for a slow Prometheus up to half its deadline rather than read every proxy', async () => {
    // Prometheus behind a second of delay: longer than twice the per-proxy timeout (2 x 300 ms),
    // far within half the view's deadline (30 s, so that a busy machine's slower Prometheus
    // is waited for too)
    const slow = http.createServer((req, res) => {
      setTimeout(() => {
        const up = http.request(
          new URL(req.url ?? '/', prom.url),
          { method: req.method, headers: req.headers },
          (r) => {
            res.writeHead(r.statusCode ?? 502, r.headers);
            r.pipe(res);
          },
        );
        up.on('error', () => res.destroy());
        req.pipe(up);
      }, 1_000);
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', () => r()));
    try {
      const addr = slow.address() as { port: number };
      const before = await simRequests();
      const g = await gatherScopingInput({
        ...deps,
        timeoutMs: 300,
        deadlineMs: 60_000,
        prometheusUrl: `http://127.0.0.1:${addr.port}`,
      });
      const after = await simRequests();
      expect(g.gather.countsPrometheusError).toBeNull();
      expect(g.gather.countsFromPrometheus).toBe(g.gather.countsMeasured);
      expect(g.gather.prometheus).toBe('ok');
      // no sidecar read: every count and destination came from the slow Prometheus
      expect(
        (after['portforward pods/portforward'] ?? 0) -
          (before['portforward pods/portforward'] ?? 0),
      ).toBe(0);
      expect((after['log pods/log'] ?? 0) - (before['log pods/log'] ?? 0)).toBe(0);
    } finally {
      slow.closeAllConnections();
      await new Promise((r) => slow.close(r));
    }
  });
});
