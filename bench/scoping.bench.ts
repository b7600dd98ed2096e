import { KubeConfig } from '@kubernetes/client-node';
import { buildScopingReport } from '../lib/scoping/report';
import { DEFAULT_BUDGET } from '../server/kube/budget';
import { KubeTransport } from '../server/kube/transport';
import { gatherScopingInput } from '../server/screens/scoping/gather';
import { startPrometheus, waitForQuery } from '../test-support/prometheus';
import { ms, peakRssMb, startSimProcess, type BenchResult } from './support';

/**
 * The request budget is raised for these gathers (1,000 QPS, 32 at a time): they measure how
 * fast meshdx gathers, not how long its default budget spaces 6,000 requests.
 */
const BENCH_BUDGET = { qps: 1000, burst: 1000, proxyConcurrency: 32 };

async function simRequests(url: string): Promise<Record<string, number>> {
  const info = (await (await fetch(`${url}/_sim/info`)).json()) as {
    requests: Record<string, number>;
  };
  return info.requests;
}

const apiTotal = (r: Record<string, number>) =>
  Object.entries(r).reduce((a, [k, v]) => (k.startsWith('watch ') ? a : a + v), 0);

const RUNS = 3;

/**
 * Scoping on the `scale` scenario (2,000 proxies, 500 services), simulator in a child process:
 * the end-to-end gather (objects, every proxy's :15090 count, Envoy /stats over port-forward and
 * access-log tail, istiod push health) and, separately, the report computation on what was
 * gathered (median of 3 runs). Then the gather with a real Prometheus scraping the simulator's
 * Envoy series: counts from the fleet's instant queries, one sampled proxy per workload.
 */
export async function run(): Promise<BenchResult[]> {
  const proxies = 2000;
  const sim = await startSimProcess('scale', { pods: String(proxies), services: '500' });
  try {
    const kc = new KubeConfig();
    kc.loadFromString(sim.kubeconfigYaml);
    const t = new KubeTransport(kc, BENCH_BUDGET);
    const before = await simRequests(sim.url);
    const start = process.hrtime.bigint();
    const g = await gatherScopingInput({
      transport: t,
      kc,
      istioNamespace: 'istio-system',
      concurrency: 32,
      timeoutMs: 10_000,
      logTailLines: 500,
      deadlineMs: 600_000,
    });
    const gatherMs = ms(start);
    const directCalls = apiTotal(await simRequests(sim.url)) - apiTotal(before);
    if (g.gather.proxies < proxies)
      throw new Error(`expected at least ${proxies} proxies, saw ${g.gather.proxies}`);
    const times: number[] = [];
    let report = buildScopingReport(g.input);
    for (let i = 0; i < RUNS; i++) {
      const s = process.hrtime.bigint();
      report = buildScopingReport(g.input);
      times.push(ms(s));
    }
    times.sort((a, b) => a - b);
    const reportMs = times[Math.floor(RUNS / 2)] ?? 0;
    const stats = g.gather.sources.find((s) => s.source === 'envoy-stats');

    const prom = await startPrometheus({
      hostPort: new URL(sim.url).host,
      metricsPath: '/_sim/envoy/metrics',
      scrapeSeconds: 5,
    });
    let promMs = 0;
    let promCalls = 0;
    let fromProm = g;
    try {
      await waitForQuery(
        prom,
        'count(envoy_cluster_manager_active_clusters)',
        (r) => Number((r[0] as { value?: [number, string] } | undefined)?.value?.[1]) >= proxies,
        120_000,
      );
      const b = await simRequests(sim.url);
      const s = process.hrtime.bigint();
      fromProm = await gatherScopingInput({
        transport: t,
        kc,
        istioNamespace: 'istio-system',
        concurrency: 32,
        timeoutMs: 10_000,
        logTailLines: 500,
        deadlineMs: 600_000,
        prometheusUrl: prom.url,
      });
      promMs = ms(s);
      promCalls = apiTotal(await simRequests(sim.url)) - apiTotal(b);
    } finally {
      await prom.stop();
    }
    const promStats = fromProm.gather.sources.find((x) => x.source === 'envoy-stats');
    t.close();
    return [
      {
        name: 'scoping.gather-2000-proxies-prometheus',
        value: Math.round(promMs),
        unit: 'ms',
        target: 3_000,
        note: `${fromProm.gather.countsFromPrometheus ?? 0} counts from Prometheus, envoy-stats sampled ${promStats?.asked ?? 0} proxies, ${promCalls} API requests (vs ${directCalls} without Prometheus); budget raised to ${BENCH_BUDGET.qps} QPS, at the default ${DEFAULT_BUDGET.qps} QPS these requests alone need ~${Math.round(promCalls / DEFAULT_BUDGET.qps)} s`,
      },
      {
        name: 'scoping.report-2000-proxies-500-services',
        value: Math.round(reportMs),
        unit: 'ms',
        target: 2_000,
        note: `${report.totals.workloads} workloads, ${report.generated.length} proposals, ${report.totals.clustersBefore.toLocaleString('en-US')} -> ${report.totals.clustersAfter.toLocaleString('en-US')} clusters`,
      },
      {
        name: 'scoping.gather-end-to-end-2000-proxies',
        value: Math.round(gatherMs),
        unit: 'ms',
        note: `${g.gather.countsMeasured} counts measured, envoy-stats ${stats?.available ?? 0}/${stats?.asked ?? 0}, ${g.gather.unreachableTotal} unreachable, concurrency 32, ${directCalls} API requests (budget raised to ${BENCH_BUDGET.qps} QPS)`,
      },
      {
        name: 'scoping.peak-rss',
        value: Math.round(peakRssMb()),
        unit: 'MB',
      },
    ];
  } finally {
    await sim.stop();
  }
}
