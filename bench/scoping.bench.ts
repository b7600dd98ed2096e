import { KubeConfig } from '@kubernetes/client-node';
import { buildScopingReport } from '../lib/scoping/report';
import { KubeTransport } from '../server/kube/transport';
import { gatherScopingInput } from '../server/screens/scoping/gather';
import { ms, peakRssMb, startSimProcess, type BenchResult } from './support';

const RUNS = 3;

/**
 * Scoping on the `scale` scenario (2,000 proxies, 500 services), simulator in a child process:
 * the end-to-end gather (objects, every proxy's :15090 count, Envoy /stats over port-forward and
 * access-log tail, istiod push health) and, separately, the report computation on what was
 * gathered (median of 3 runs).
 */
export async function run(): Promise<BenchResult[]> {
  const proxies = 2000;
  const sim = await startSimProcess('scale', { pods: String(proxies), services: '500' });
  try {
    const kc = new KubeConfig();
    kc.loadFromString(sim.kubeconfigYaml);
    const t = new KubeTransport(kc);
    const start = process.hrtime.bigint();
    const g = await gatherScopingInput({
      transport: t,
      kc,
      istioNamespace: 'istio-system',
      concurrency: 32,
      timeoutMs: 10_000,
      logTailLines: 500,
    });
    const gatherMs = ms(start);
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
    t.close();
    return [
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
        note: `${g.gather.countsMeasured} counts measured, envoy-stats ${stats?.available ?? 0}/${stats?.asked ?? 0}, ${g.gather.unreachableTotal} unreachable, concurrency 32`,
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
