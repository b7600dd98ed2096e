import { startNextServer, vmHwmMb, waitForWatches } from './next-server';
import { ms, startSimProcess, type BenchResult } from './support';

/**
 * The meshdx server as the product runs, holding 50,000 pods (2,000 services, 20,000 with a
 * sidecar): `next start` (production build) against the simulator in its own process, its
 * watches listed, then every view opened once (its page and the API its page asks), one after
 * the other as a person clicks through them; the server's peak resident set (VmHWM) at the end.
 */
const VIEWS: [string, string[]][] = [
  ['overview', ['/', '/api/inventory', '/api/ambient', '/api/findings']],
  ['timelines', ['/timelines', '/api/timelines']],
  ['proxies', ['/proxies', '/api/proxies/fleet']],
  ['scoping', ['/scoping', '/api/scoping']],
  ['incidents', ['/incidents', '/api/incidents']],
  ['findings', ['/findings', '/api/findings']],
];

export async function run(): Promise<BenchResult[]> {
  const sim = await startSimProcess('scale', {
    pods: '50000',
    services: '2000',
    proxies: '20000',
  });
  try {
    const server = await startNextServer(sim.kubeconfig);
    try {
      const listed = await waitForWatches(server.url);
      const afterList = vmHwmMb(server.pid);
      const answers: string[] = [];
      for (const [view, urls] of VIEWS) {
        const t0 = process.hrtime.bigint();
        const codes = await Promise.all(
          urls.map((u) =>
            fetch(`${server.url}${u}`, { signal: AbortSignal.timeout(120_000) }).then(
              async (r) => {
                await r.arrayBuffer();
                return `${u} ${r.status}`;
              },
              (e: unknown) => `${u} failed (${e instanceof Error ? e.message : String(e)})`,
            ),
          ),
        );
        answers.push(
          `${view} ${Math.round(ms(t0))} ms, peak ${Math.round(vmHwmMb(server.pid))} MB [${codes.join(', ')}]`,
        );
      }
      const peak = vmHwmMb(server.pid);
      return [
        {
          name: 'server.peak-rss-50000-pods',
          value: Math.round(peak),
          unit: 'MB',
          target: 1500,
          note: `VmHWM of the next start process; ${Math.round(afterList)} MB once its watches had listed (${listed} ms); views: ${answers.join('; ')}`,
        },
      ];
    } finally {
      await server.stop();
    }
  } finally {
    await sim.stop();
  }
}
