import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './ports';
import { EVENT_WAIT_GUARD_MS } from './deadlines';

/** Debian's Prometheus (package `prometheus`), installed by .ci/run and scripts/ensure-tools. */
export const PROMETHEUS_BIN = process.env.PROMETHEUS_PATH ?? '/usr/bin/prometheus';
/** Prometheus' own checker, beside it in the same package. */
export const PROMTOOL_BIN = path.join(path.dirname(PROMETHEUS_BIN), 'promtool');

export interface RunningPrometheus {
  url: string;
  /** Its process id (for its CPU time in /proc). */
  pid: number;
  /** Everything Prometheus printed, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts a real Prometheus on loopback with its own empty TSDB, scraping one target
 * (`host:port` + metricsPath) every scrapeSeconds, and waits until it answers /-/ready.
 */
export async function startPrometheus(target: {
  hostPort: string;
  metricsPath: string;
  scrapeSeconds: number;
  /** The scrape job's name (its `job` label). */
  job?: string;
}): Promise<RunningPrometheus> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-prometheus-'));
  const config = path.join(dir, 'prometheus.yml');
  fs.writeFileSync(
    config,
    [
      'global:',
      `  scrape_interval: ${target.scrapeSeconds}s`,
      `  evaluation_interval: ${target.scrapeSeconds}s`,
      'scrape_configs:',
      `  - job_name: ${target.job ?? 'kube-state-metrics'}`,
      `    metrics_path: ${target.metricsPath}`,
      '    static_configs:',
      `      - targets: ['${target.hostPort}']`,
      '',
    ].join('\n'),
  );
  const port = await freePort();
  let out = '';
  const child: ChildProcess = spawn(
    PROMETHEUS_BIN,
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const until = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`prometheus exited (${child.exitCode}) at start:\n${out}`);
    }
    const ready = await fetch(`${url}/-/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > until) {
      await stop();
      throw new Error(`prometheus did not become ready within 20 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, pid: child.pid ?? -1, output: () => out, stop };
}

/**
 * Polls an instant query until check() accepts its result vector (or throws after timeoutMs: a
 * guard, as a busy machine's Prometheus scrapes and evaluates later; 20 s was not always enough).
 */
export async function waitForQuery(
  prom: RunningPrometheus,
  query: string,
  check: (result: { metric: Record<string, string> }[]) => boolean,
  timeoutMs = EVENT_WAIT_GUARD_MS,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < until) {
    const res = await fetch(`${prom.url}/api/v1/query?query=${encodeURIComponent(query)}`);
    const body = (await res.json()) as { data?: { result?: { metric: Record<string, string> }[] } };
    const result = body.data?.result ?? [];
    last = JSON.stringify(result.map((r) => r.metric));
    if (check(result)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`query ${query} never gave the expected result; last: ${last}`);
}

/**
 * Debian's prometheus, which the tests that start one need: `npm test` installs it (as `.ci/run`
 * does). Its absence is a failure that says how to install it, never a skip.
 */
export function requirePrometheus(): void {
  if (!fs.existsSync(PROMETHEUS_BIN))
    throw new Error(`prometheus tests need ${PROMETHEUS_BIN} (apt-get install -y prometheus)`);
  if (!fs.existsSync(PROMTOOL_BIN))
    throw new Error(`prometheus tests need ${PROMTOOL_BIN} (apt-get install -y prometheus)`);
}
