/**
 * `tsx test-support/prometheus-demo.ts --port P [--scenario demo] [--kubeconfig FILE]`: the demo simulator on the
 * wall clock, a real Prometheus (Debian's) scraping its sidecars' Envoy series every second, and
 * the production dashboard (`next start`, last `next build`) on both, as a cluster with Istio's
 * standard scrape would be. For the browser tests of what comes from Prometheus and for looking
 * at the bloat chart by hand; it prints the kubeconfig so kubectl can change the cluster.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startPrometheus, type RunningPrometheus } from './prometheus';
import { nextStartArgs } from './next-start';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    scenario: { type: 'string', default: 'demo' },
    /** Where the simulator's kubeconfig is written (default: a temp dir), for kubectl. */
    kubeconfig: { type: 'string' },
  },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`prometheus-demo: --port ${String(values.port)} is not a TCP port`);
  process.exit(2);
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-prom-demo-'));
const kubeconfig = path.resolve(values.kubeconfig ?? path.join(dir, 'kubeconfig'));
fs.mkdirSync(path.dirname(kubeconfig), { recursive: true });
fs.rmSync(kubeconfig, { force: true });
const children: ChildProcess[] = [];
let prom: RunningPrometheus | null = null;

async function shutdown(code: number): Promise<never> {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  await prom?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

const sim = spawn(
  bin('tsx'),
  ['server/sim/main.ts', '--scenario', values.scenario, '--port', '0', '--kubeconfig', kubeconfig],
  { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
);
children.push(sim);
sim.on('exit', (code) => {
  console.error(`prometheus-demo: the simulator exited (${code}); stopping.`);
  void shutdown(code || 1);
});
const until = Date.now() + 60_000;
// the file appears before its text is in: wait for its server line
let simUrl: string | undefined;
while (!simUrl) {
  if (Date.now() > until) {
    console.error(`prometheus-demo: the simulator wrote no server into ${kubeconfig} within 60 s`);
    await shutdown(1);
  }
  await new Promise((r) => setTimeout(r, 100));
  const text = fs.existsSync(kubeconfig) ? fs.readFileSync(kubeconfig, 'utf8') : '';
  simUrl = /server:\s*(\S+)/.exec(text)?.[1];
}

prom = await startPrometheus({
  hostPort: new URL(simUrl as string).host,
  metricsPath: '/_sim/envoy/metrics',
  scrapeSeconds: 1,
});

const next = spawn(bin('next'), nextStartArgs(port), {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: '1',
    MESHDX_KUBECONFIG: kubeconfig,
    MESHDX_PROMETHEUS: prom.url,
    MESHDX_DB: dir,
    // a simulated API server on this machine, as `npm run demo` gives it
    MESHDX_API_QPS: '200',
    MESHDX_API_BURST: '400',
  },
});
children.push(next);
next.on('exit', (code) => {
  console.error(`prometheus-demo: the dashboard exited (${code}); stopping.`);
  void shutdown(code || 1);
});
console.log(`prometheus-demo: kubeconfig ${kubeconfig}`);
console.log(`prometheus-demo: prometheus ${prom.url}`);
console.log(`prometheus-demo: dashboard http://127.0.0.1:${port}/`);
