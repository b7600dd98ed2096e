import { KubeConfig } from '@kubernetes/client-node';
import { envoyAdminGet } from '../server/kube/podports';
import { listPods } from '../server/kube/resources';
import { KubeTransport } from '../server/kube/transport';
import { scanFleet } from '../server/screens/proxies/scan';
import { ms, peakRssMb, startSimProcess, type BenchResult } from './support';
import { podKeyOfObject } from '../lib/refs/pod-ref';

/**
 * Fleet scan of the `scale` scenario (2,000 proxies) through the simulator in a child process,
 * end to end (list pods and Sidecars, every :15090 scrape, istiod sync state, view model), against
 * fetching each proxy's full config_dump one after another as istioctl does.
 */
export async function run(): Promise<BenchResult[]> {
  const proxies = 2000;
  const sim = await startSimProcess('scale', { pods: String(proxies), services: '500' });
  try {
    const kc = new KubeConfig();
    kc.loadFromString(sim.kubeconfigYaml);
    // budget raised: this measures the scan's own speed, not 2,000 requests spaced at 20 QPS
    // (fleet.bench.ts measures the default budget's rate)
    const t = new KubeTransport(kc, { qps: 1000, burst: 1000, proxyConcurrency: 32 });
    const rssBefore = peakRssMb();
    const start = process.hrtime.bigint();
    const fleet = await scanFleet({
      transport: t,
      kc,
      istioNamespace: 'istio-system',
      concurrency: 32,
      timeoutMs: 4_000,
    });
    const scanMs = ms(start);
    const scanRss = peakRssMb();
    const scanned = fleet.rows.filter((r) => r.status === 'ok').length;
    if (fleet.rows.length < proxies)
      throw new Error(`expected at least ${proxies} proxies, saw ${fleet.rows.length}`);

    // istioctl's way: the full config_dump of one proxy after the other, on the same proxies
    const pods = (await listPods(t)).items.filter((p) =>
      fleet.rows.some((r) => r.status === 'ok' && r.key === podKeyOfObject(p)),
    );
    const sample = pods;
    let bytes = 0;
    const seqStart = process.hrtime.bigint();
    for (const p of sample) {
      const res = await envoyAdminGet(
        kc,
        p.metadata.namespace ?? 'default',
        p.metadata.name,
        '/config_dump',
        {
          timeoutMs: 30_000,
        },
      );
      bytes += res.body.length;
    }
    const seqMs = ms(seqStart);
    const perProxy = seqMs / Math.max(1, sample.length);
    t.close();
    return [
      {
        name: 'proxies.fleet-scan-2000-proxies',
        value: Math.round(scanMs),
        unit: 'ms',
        target: 5_000,
        note: `${scanned} answered, ${fleet.totals.clusters.value?.toLocaleString('en-US') ?? 'unknown'} clusters in total (${fleet.totals.clusters.unknown} proxies unknown)`,
      },
      {
        name: 'proxies.fleet-scan-peak-rss',
        value: Math.round(scanRss),
        unit: 'MB',
        target: 300,
        note: `before the scan: ${Math.round(rssBefore)} MB`,
      },
      {
        name: 'proxies.istioctl-way-sequential-config-dumps',
        value: Math.round(seqMs),
        unit: 'ms',
        note: `${sample.length} proxies one after another: ${Math.round(perProxy)} ms and ${Math.round(bytes / Math.max(1, sample.length) / 1024)} KiB per proxy`,
      },
    ];
  } finally {
    await sim.stop();
  }
}
