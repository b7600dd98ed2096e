import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { l7PolicyYaml } from '../test-support/l7-policy';
import { startNextServer } from './next-server';
import { startSimProcess, type BenchResult } from './support';

/**
 * `findings.apply-to-view`: from `kubectl apply` of an L7 AuthorizationPolicy (HTTP methods,
 * bound by selector) in the demo's ambient namespace returning, to a Findings page open in a
 * browser showing its MDX0601, on the production build against the demo simulator (its own
 * process). The page is played as the browser plays it (components/findings/useFindingsFollow.ts,
 * api.ts): GET /api/findings/changes?after=N held until the change is heard, then the report, and
 * again every second while it names analyses still running.
 * Five policies, one after the other (each deleted after): the slowest is the figure.
 */
const exec = promisify(execFile);
const ROUNDS = 5;
const TARGET_MS = 2_000;

interface Report {
  findings: { code: string; subject: { name: string } }[];
  late?: unknown[];
  follow?: { revision: number };
}

export async function run(): Promise<BenchResult[]> {
  const sim = await startSimProcess('demo');
  const next = await startNextServer(sim.kubeconfig);
  const kubectl = async (input: string | null, ...args: string[]) => {
    const p = exec('kubectl', ['--kubeconfig', sim.kubeconfig, ...args], { timeout: 30_000 });
    if (input !== null) p.child.stdin?.end(input);
    return (await p).stdout;
  };
  const getJson = async <T>(p: string): Promise<T> => {
    const r = await fetch(`${next.url}${p}`);
    if (!r.ok) throw new Error(`${p}: ${r.status} ${await r.text()}`);
    return (await r.json()) as T;
  };
  const times: number[] = [];
  try {
    // the page is open: its report is whole and its watches listed
    let report = await getJson<Report>('/api/findings');
    const whole = Date.now() + 120_000;
    while ((report.late?.length ?? 0) > 0 || report.follow === undefined) {
      if (Date.now() > whole) throw new Error('the demo’s findings report was not whole in 120 s');
      await new Promise((r) => setTimeout(r, 1_000));
      report = await getJson<Report>('/api/findings');
    }
    // the watches' first lists (started with the first report) are in before the first apply
    await new Promise((r) => setTimeout(r, 3_000));
    for (let i = 0; i < ROUNDS; i++) {
      const name = `bench-get-only-${i}`;
      const shows = (r: Report) =>
        r.findings.some((f) => f.code === 'MDX0601' && f.subject.name === name);
      await kubectl(l7PolicyYaml(name), 'apply', '-f', '-');
      const t0 = Date.now();
      // the page's follow: a long poll answered when the change is heard
      const begun = report.follow?.revision ?? 0;
      for (;;) {
        const c = await getJson<{ revision: number }>(`/api/findings/changes?after=${begun}`);
        if (c.revision > begun) break;
        if (Date.now() - t0 > 60_000) throw new Error(`${name}: the change not heard in 60 s`);
      }
      for (;;) {
        report = await getJson<Report>('/api/findings');
        if (process.env.MESHDX_BENCH_TRACE)
          console.error(
            `  ${name} +${Date.now() - t0} ms: report begun at ${report.follow?.revision}, late ${JSON.stringify(report.late ?? [])}`,
          );
        if (shows(report)) break;
        if (Date.now() - t0 > 60_000) throw new Error(`${name}: not shown within 60 s`);
        // still late: asked again as the page asks while analyses run
        await new Promise((r) => setTimeout(r, 1_000));
      }
      times.push(Date.now() - t0);
      await kubectl(null, 'delete', 'authorizationpolicy', '-n', 'mesh-ambient', name);
      // the deletion's report is in before the next round
      await new Promise((r) => setTimeout(r, 2_000));
      report = await getJson<Report>('/api/findings');
    }
  } finally {
    await next.stop();
    await sim.stop();
  }
  const sorted = [...times].sort((a, b) => a - b);
  return [
    {
      name: 'findings.apply-to-view',
      value: sorted[sorted.length - 1] ?? Infinity,
      unit: 'ms',
      target: TARGET_MS,
      note: `slowest of ${ROUNDS} (each: ${times.join(', ')} ms); median ${sorted[Math.floor(sorted.length / 2)]} ms`,
    },
  ];
}
