import { cpuMs, listenerPid, startNextServer } from './next-server';
import { ms, startSimProcess, type BenchResult, type SimProcess } from './support';

/**
 * The first minute after a restart at 50,000 pods (2,000 services, 20,000 with a sidecar): from
 * spawning `next start` (production build) to the answer of a view's first page as a person
 * opening it at once gets it: Overview's HTML, which carries its figures (the server renders
 * them), and Timelines' HTML, then the API its page asks for (its rows). Each view is
 * measured on a server of its own, so each is the first thing asked of a cold server. The
 * simulator runs in its own process; the CPU each process used until the answer is reported
 * apart, so that the simulator's share does not hide meshdx's.
 */
const VIEWS: {
  name: string;
  target: number;
  urls: string[];
  /** What is wrong with the last answer (null: a real first page), and how whole it was. */
  check: (body: string) => { problem: string | null; whole: string };
}[] = [
  {
    name: 'coldstart.first-timelines-page-50000-pods',
    target: 8_000,
    urls: ['/timelines', '/api/timelines'],
    check: (b) => {
      const page = JSON.parse(b) as {
        rows?: unknown[];
        page?: { matched?: number };
        late?: { part: string; detail: string }[];
      };
      const pods = page.late?.find((l) => l.part === 'pods');
      return {
        problem:
          Array.isArray(page.rows) && page.rows.length > 0
            ? null
            : `no rows in the first page (${JSON.stringify(page.page ?? null)})`,
        whole: `${page.rows?.length ?? 0} rows of ${page.page?.matched ?? 0} meshed pods${pods ? `, from part of the pods (${pods.detail})` : ', every pod listed'}`,
      };
    },
  },
  {
    name: 'coldstart.first-overview-50000-pods',
    target: 5_000,
    urls: ['/'],
    check: (html) => {
      const pods = /data-testid="stat-pods".*?>Pods( \(so far\))?<\/div><div[^>]*>([\d,]+)</.exec(
        html,
      );
      return {
        problem: pods ? null : 'the page carries no pod count',
        whole: pods
          ? `${pods[2]} pods${pods[1] ? ' read so far (the list still running)' : ', every pod listed'}`
          : '',
      };
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
    let last = '';
    for (const u of view.urls) {
      const r = await fetch(`${server.url}${u}`, { signal: AbortSignal.timeout(120_000) });
      last = await r.text();
      if (!r.ok) throw new Error(`${u} answered ${r.status}: ${last.slice(0, 300)}`);
    }
    const took = ms(t0);
    const { problem, whole } = view.check(last);
    if (problem) throw new Error(`${view.name}: ${problem}`);
    const meshdxCpu = cpuMs(server.pid);
    const simCpu = cpuMs(simPid) - simCpu0;
    return {
      name: view.name,
      value: Math.round(took),
      unit: 'ms',
      target: view.target,
      note: `${whole}; server up (answering) after ${Math.round(up)} ms; CPU until the answer: meshdx ${Math.round(meshdxCpu)} ms, simulator ${Math.round(simCpu)} ms`,
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
