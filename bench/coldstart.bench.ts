import { cpuMs, listenerPid, startNextServer } from './next-server';
import { ms, startSimProcess, type BenchResult, type SimProcess } from './support';

/**
 * The first minute after a restart at 50,000 pods (2,000 services, 20,000 with a sidecar): from
 * spawning `next start` (production build) to the answer of a view's first page as a person
 * opening it at once gets it: the page's HTML, then the API its page asks for. Each view is
 * measured on a server of its own, so each is the first thing asked of a cold server. The
 * simulator runs in its own process; the CPU each process used until the answer is reported
 * apart, so that the simulator's share does not hide meshdx's.
 */
const VIEWS: {
  name: string;
  target: number;
  urls: string[];
  check: (body: unknown) => string | null;
}[] = [
  {
    name: 'coldstart.first-timelines-page-50000-pods',
    target: 8_000,
    urls: ['/timelines', '/api/timelines'],
    check: (b) => {
      const page = b as { rows?: unknown[]; page?: { matched?: number } };
      return Array.isArray(page.rows) && page.rows.length > 0
        ? null
        : `no rows in the first page (${JSON.stringify(page.page ?? null)})`;
    },
  },
  {
    name: 'coldstart.first-overview-50000-pods',
    target: 5_000,
    urls: ['/', '/api/inventory'],
    check: (b) => {
      const inv = b as { totals?: { pods?: number } } | null;
      return (inv?.totals?.pods ?? 0) > 0
        ? null
        : `no pods counted (${JSON.stringify(inv?.totals ?? null)})`;
    },
  },
];

async function firstAnswer(sim: SimProcess, view: (typeof VIEWS)[number]): Promise<BenchResult> {
  const simPid = listenerPid(Number(new URL(sim.url).port)) ?? sim.child.pid ?? -1;
  const simCpu0 = cpuMs(simPid);
  const t0 = process.hrtime.bigint();
  const server = await startNextServer(sim.kubeconfig, {}, 20);
  try {
    const up = ms(t0);
    let last: unknown = null;
    for (const u of view.urls) {
      const r = await fetch(`${server.url}${u}`, { signal: AbortSignal.timeout(120_000) });
      const text = await r.text();
      if (!r.ok) throw new Error(`${u} answered ${r.status}: ${text.slice(0, 300)}`);
      last = u.startsWith('/api/') ? (JSON.parse(text) as unknown) : null;
    }
    const took = ms(t0);
    const problem = view.check(last);
    if (problem) throw new Error(`${view.name}: ${problem}`);
    const meshdxCpu = cpuMs(server.pid);
    const simCpu = cpuMs(simPid) - simCpu0;
    return {
      name: view.name,
      value: Math.round(took),
      unit: 'ms',
      target: view.target,
      note: `server up (answering) after ${Math.round(up)} ms; CPU until the answer: meshdx ${Math.round(meshdxCpu)} ms, simulator ${Math.round(simCpu)} ms`,
    };
  } finally {
    await server.stop();
  }
}

export async function run(): Promise<BenchResult[]> {
  const sim = await startSimProcess('scale', { pods: '50000', services: '2000', proxies: '20000' });
  try {
    const out: BenchResult[] = [];
    for (const view of VIEWS) out.push(await firstAnswer(sim, view));
    return out;
  } finally {
    await sim.stop();
  }
}
