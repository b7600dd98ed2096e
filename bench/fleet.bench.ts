import { KubeConfig } from '@kubernetes/client-node';
import { FleetStreamLineSchema, type FleetView } from '../lib/api/proxies';
import { KubeTransport } from '../server/kube/transport';
import { readPromFleet } from '../server/prometheus/fleet';
import { scanFleet } from '../server/screens/proxies/scan';
import { startPrometheus, waitForQuery } from '../test-support/prometheus';
import { startNextServer, vmHwmMb, waitForWatches, type NextServer } from './next-server';
import { ms, processTreeCpuMs, startSimProcess, type BenchResult } from './support';

const RUNS = 3;
/** Prometheus's scrape interval in the 20,000-proxy run. */
const SCRAPE_SECONDS = 30;

async function simRequests(url: string): Promise<Record<string, number>> {
  const info = (await (await fetch(`${url}/_sim/info`)).json()) as {
    requests: Record<string, number>;
  };
  return info.requests;
}

const total = (r: Record<string, number>) =>
  Object.entries(r).reduce((a, [k, v]) => (k.startsWith('watch ') ? a : a + v), 0);

/** Prometheus's view of its one scrape target: when it was last scraped and how long that took. */
async function lastScrape(promUrl: string): Promise<{ at: number; seconds: number } | null> {
  const body = (await (await fetch(`${promUrl}/api/v1/targets`)).json()) as {
    data?: { activeTargets?: { lastScrape?: string; lastScrapeDuration?: number }[] };
  };
  const t = body.data?.activeTargets?.[0];
  const at = Date.parse(t?.lastScrape ?? '');
  return Number.isFinite(at) && typeof t?.lastScrapeDuration === 'number'
    ? { at, seconds: t.lastScrapeDuration }
    : null;
}

/**
 * Waits for a lull between scrapes: the last one over (its duration and a second more past its
 * start) and at least `needSeconds` before the next. The simulator renders all 20,000 proxies'
 * series as one target, ~4 s of CPU on this machine's two cores every scrape, which a cluster,
 * whose proxies are scraped one by one on other nodes, never puts next to meshdx. Returns how
 * long ago the last scrape started when the lull began, for the note.
 */
async function scrapeLull(
  promUrl: string,
  intervalSeconds: number,
  needSeconds: number,
): Promise<string> {
  const until = Date.now() + 3 * intervalSeconds * 1000;
  for (;;) {
    const s = await lastScrape(promUrl);
    if (!s) return 'scrape times unknown';
    const since = (Date.now() - s.at) / 1000;
    if (since >= s.seconds + 1 && since <= intervalSeconds - needSeconds)
      return `the last scrape (${s.seconds.toFixed(1)} s) started ${since.toFixed(1)} s before`;
    if (Date.now() > until) return `no lull between scrapes found (last ${since.toFixed(1)} s ago)`;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Prometheus's CPU over the next `windowMs` (its own work: ingestion, GC, none of meshdx's). */
async function cpuOver(pid: number, windowMs: number): Promise<number> {
  const before = processTreeCpuMs(pid);
  await new Promise((r) => setTimeout(r, windowMs));
  return processTreeCpuMs(pid) - before;
}

/**
 * A lull between scrapes (scrapeLull) in which Prometheus is also at rest: after ingesting a
 * scrape of 120,000 series its Go runtime may still be busy for seconds (measured: 860 ms and
 * 1,930 ms of Prometheus CPU around the same first answer in two runs), and on this machine that
 * work takes the cores meshdx's view runs on; on a cluster Prometheus runs elsewhere. Tries a
 * few lulls for one in which Prometheus used under a tenth of a core for a second; says which.
 */
async function quietLull(promUrl: string, promPid: number): Promise<string> {
  let last = '';
  for (let attempt = 0; attempt < 4; attempt++) {
    const lull = await scrapeLull(promUrl, SCRAPE_SECONDS, 12);
    const busy = Math.round(await cpuOver(promPid, 1000));
    last = `${lull}; Prometheus used ${busy} ms of CPU in the second before`;
    if (busy < 100) return last;
  }
  return `${last} (no quieter moment in 4 tries)`;
}

interface FleetAnswer {
  ms: number;
  bytes: number;
  fleet: FleetView;
}

/**
 * GET /api/proxies/fleet as the Proxies page asks it (`stream=1`, the first page of the default
 * ranking, NDJSON progress lines then the result), timed to its last byte.
 */
async function askFleet(url: string, extra = ''): Promise<FleetAnswer> {
  const s = process.hrtime.bigint();
  const res = await fetch(`${url}/api/proxies/fleet?stream=1${extra}`, {
    headers: { Accept: 'application/x-ndjson' },
  });
  const text = await res.text();
  const took = ms(s);
  if (!res.ok) throw new Error(`fleet API answered ${res.status}: ${text.slice(0, 300)}`);
  const last = text.trim().split('\n').at(-1) ?? '';
  const line = FleetStreamLineSchema.parse(JSON.parse(last));
  if (line.type !== 'result')
    throw new Error(`fleet API ended with ${line.type}: ${last.slice(0, 300)}`);
  return { ms: took, bytes: text.length, fleet: line.fleet };
}

/**
 * The fleet from Prometheus at 20,000 proxies, measured as the product runs: the `scale` scenario
 * in a child process, a real Prometheus scraping its Envoy series (/_sim/envoy/metrics, 120,000
 * series), and the production server (`next start`) on the simulator's kubeconfig with
 * MESHDX_PROMETHEUS set. Once its pod watch has listed, the Proxies page's fleet request is timed
 * (the first answer, then warm ones from the server's cache and recomputed ones), and the
 * server's peak RSS and the proxy requests the simulated API server saw are read.
 */
async function prometheusFleet(): Promise<BenchResult[]> {
  const proxies = 20_000;
  const sim = await startSimProcess('scale', { pods: String(proxies), services: '500' });
  const prom = await startPrometheus({
    hostPort: new URL(sim.url).host,
    metricsPath: '/_sim/envoy/metrics',
    // rendering 20,000 proxies' series blocks the one-threaded simulator for ~3 s: scrape it
    // rarely so the API requests measured here are not queued behind a scrape
    scrapeSeconds: SCRAPE_SECONDS,
  });
  let server: NextServer | null = null;
  try {
    await waitForQuery(
      prom,
      'count(envoy_cluster_manager_active_clusters)',
      (r) => Number((r[0] as { value?: [number, string] } | undefined)?.value?.[1]) >= proxies,
      180_000,
    );
    const q = process.hrtime.bigint();
    const promOnly = await readPromFleet({
      baseUrl: prom.url,
      timeoutMs: 30_000,
      fetchImpl: fetch,
    });
    const queriesMs = ms(q);
    server = await startNextServer(sim.kubeconfig, { MESHDX_PROMETHEUS: prom.url });
    await waitForWatches(server.url);
    const pid = server.pid;
    const rssListed = vmHwmMb(pid);
    const before = await simRequests(sim.url);
    const lull = await quietLull(prom.url, prom.pid);
    const url = server.url;
    // the CPU each process spends on a view: all three share this machine's cores
    const cpuOf = () => ({
      meshdx: processTreeCpuMs(pid),
      sim: sim.child.pid === undefined ? 0 : processTreeCpuMs(sim.child.pid),
      prometheus: processTreeCpuMs(prom.pid),
    });
    const cpuAround = async <T>(ask: () => Promise<T>) => {
      const before = cpuOf();
      const answer = await ask();
      const after = cpuOf();
      const d = (k: keyof typeof before) => Math.round(after[k] - before[k]);
      return {
        answer,
        cpu: `meshdx ${d('meshdx')}, simulator ${d('sim')}, Prometheus ${d('prometheus')} ms`,
      };
    };
    const { answer: first, cpu: firstCpu } = await cpuAround(() => askFleet(url));
    const rssFirst = vmHwmMb(pid);
    const cached: number[] = [];
    for (let i = 0; i < RUNS; i++) cached.push((await askFleet(server.url)).ms);
    const refreshed: FleetAnswer[] = [];
    const refreshedCpu: string[] = [];
    for (let i = 0; i < RUNS; i++) {
      const r = await cpuAround(() => askFleet(url, '&refresh=1'));
      refreshed.push(r.answer);
      refreshedCpu.push(r.cpu);
    }
    const rss = vmHwmMb(pid);
    const after = await simRequests(sim.url);
    const scans = 1 + RUNS;
    const delta = (k: string) => (after[k] ?? 0) - (before[k] ?? 0);
    const podsProxy = delta('proxy pods/proxy');
    const portForwards = delta('portforward pods/portforward');
    const istiods = first.fleet.sync.istiods;
    // istiod's per-proxy sync state (/debug/syncz) has no Prometheus series: one port-forward
    // per istiod per scan is expected; any other reached a proxy
    const proxyCalls = podsProxy + Math.max(0, portForwards - scans * istiods);
    const apiCalls = total(after) - total(before);
    const fleet = refreshed.at(-1)?.fleet ?? first.fleet;
    for (const f of [first.fleet, fleet]) {
      if (f.source.kind !== 'prometheus')
        throw new Error(`the fleet did not come from Prometheus: ${f.source.note}`);
      if (f.totals.reachable < proxies)
        throw new Error(`expected ${proxies} proxies with figures, saw ${f.totals.reachable}`);
    }
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
    const list = (xs: number[]) => xs.map((x) => `${Math.round(x)}`).join(', ');
    return [
      {
        name: 'fleet.prometheus-20000-proxies',
        value: Math.round(first.ms),
        unit: 'ms',
        target: 2_000,
        note: `first answer of GET /api/proxies/fleet?stream=1 from next start once its pod watch had listed, between two scrapes of the simulator (${lull}) (${Math.round(first.bytes / 1024)} KB, ${first.fleet.rows.length} rows of ${first.fleet.totals.proxies.toLocaleString('en-US')}, sync ${first.fleet.sync.available ? 'in' : 'late'}); then from the server's cache ${list(cached)} ms, recomputed (refresh=1) ${list(refreshed.map((r) => r.ms))} ms (median ${Math.round(med(refreshed.map((r) => r.ms)))}); CPU during the first answer: ${firstCpu}; during the recomputed ones: ${refreshedCpu.join('; ')} (two cores shared by the three); the ${promOnly.queries.length} queries + merge alone, in the bench process, ${Math.round(queriesMs)} ms (${promOnly.byPod.size.toLocaleString('en-US')} proxies); ${apiCalls} API requests over ${scans} scans (lists + istiod sync)`,
      },
      {
        name: 'fleet.prometheus-peak-rss',
        value: Math.round(rss),
        unit: 'MB',
        target: 400,
        note: `VmHWM of the next start process after ${scans + RUNS} fleet views of ${proxies.toLocaleString('en-US')} proxies: ${Math.round(rssListed)} MB once its watch had listed, ${Math.round(rssFirst)} MB after the first view`,
      },
      {
        name: 'fleet.prometheus-api-proxy-calls',
        value: proxyCalls,
        unit: 'requests',
        target: 0,
        note: `pods/proxy (${podsProxy}) and port-forward requests to proxies the simulated API server received during ${scans + RUNS} fleet views (${scans} scans); the ${portForwards} port-forwards seen include one to each of the ${istiods} istiod per scan for its sync state, which Prometheus does not hold`,
      },
    ];
  } finally {
    await server?.stop();
    await prom.stop();
    await sim.stop();
  }
}

/** The per-proxy scan at the default budget: request rate seen by the server, in 5 s windows. */
async function scanQps(): Promise<BenchResult[]> {
  // enough proxies that the scan outlasts the opening burst by several 5 s windows
  const proxies = 800;
  const sim = await startSimProcess('scale', { pods: String(proxies), services: '60' });
  try {
    const kc = new KubeConfig();
    kc.loadFromString(sim.kubeconfigYaml);
    const t = new KubeTransport(kc);
    const { qps, burst } = t.budget.settings;
    const samples: { at: number; n: number }[] = [];
    let done = false;
    const sampler = (async () => {
      while (!done) {
        samples.push({ at: Date.now(), n: total(await simRequests(sim.url)) });
        await new Promise((r) => setTimeout(r, 250));
      }
    })();
    const s = process.hrtime.bigint();
    const fleet = await scanFleet({
      transport: t,
      kc,
      istioNamespace: 'istio-system',
      concurrency: 32,
      timeoutMs: 4_000,
      deadlineMs: 120_000,
    });
    const scanMs = ms(s);
    done = true;
    await sampler;
    t.close();
    // after the opening burst (burst/qps seconds), the most requests in any 5 s window / 5 s
    const WINDOW = 5_000;
    const t0 = (samples[0]?.at ?? 0) + (burst / qps) * 1000 + 1000;
    let peak = 0;
    for (const a of samples) {
      if (a.at < t0) continue;
      const b = samples.find((x) => x.at >= a.at + WINDOW);
      if (!b) break;
      peak = Math.max(peak, (b.n - a.n) / ((b.at - a.at) / 1000));
    }
    if (peak === 0)
      throw new Error(
        `the scan (${Math.round(scanMs)} ms) ended before one 5 s window after the opening burst: no rate measured`,
      );
    return [
      {
        name: 'fleet.scan-api-qps',
        value: Math.round(peak * 10) / 10,
        unit: 'req/s',
        // a token bucket allows qps x T + 1 in any window T: 5 s windows round that to qps + 0.2
        target: qps + 1 / (WINDOW / 1000),
        note: `per-proxy scan of ${fleet.rows.length} proxies at the default budget (${qps} QPS, burst ${burst}) took ${Math.round(scanMs)} ms; peak over 5 s windows as the simulated API server counted, after the opening burst; meshdx's own peak 1 s count ${fleet.api.peakQps}`,
      },
    ];
  } finally {
    await sim.stop();
  }
}

export async function run(): Promise<BenchResult[]> {
  return [...(await scanQps()), ...(await prometheusFleet())];
}
