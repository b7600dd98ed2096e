import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nextStartArgs } from '../test-support/next-start';
import { freePort } from '../test-support/ports';

/**
 * The production build (`next start`, run `next build` first) as its own process against a
 * kubeconfig, with its history store in a fresh folder (as the product keeps it: a file).
 */
export interface NextServer {
  url: string;
  /** The process that listens (the Next server itself), for /proc/PID/status. */
  pid: number;
  stop(): Promise<void>;
}

const root = path.resolve(import.meta.dirname, '..');

/** The pid listening on a loopback port (ss), or null. */
export function listenerPid(port: number): number | null {
  const r = spawnSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8' });
  const m = /pid=(\d+)/.exec(r.stdout ?? '');
  return m ? Number(m[1]) : null;
}

/**
 * The memory settings the image runs the server with (the runtime stage's `ENV MALLOC_...` and
 * `ENV NODE_OPTIONS=...` of the Dockerfile): the server measured here runs as it ships.
 */
export function imageMemoryEnv(): Record<string, string> {
  const dockerfile = fs.readFileSync(path.join(root, 'Dockerfile'), 'utf8');
  const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  const env: Record<string, string> = {};
  for (const m of runtime.matchAll(/^ENV ((?:MALLOC_\w+=\S+\s*)+)$/gm))
    for (const pair of (m[1] ?? '').trim().split(/\s+/)) {
      const [k, v] = pair.split('=');
      if (k && v) env[k] = v;
    }
  if (Object.keys(env).length === 0)
    throw new Error('Dockerfile: no ENV MALLOC_... line in the runtime stage');
  const node = /^ENV NODE_OPTIONS=(\S+)$/m.exec(runtime)?.[1];
  if (!node) throw new Error('Dockerfile: no ENV NODE_OPTIONS=... line in the runtime stage');
  env.NODE_OPTIONS = node;
  return env;
}

export async function startNextServer(
  kubeconfig: string,
  env: Record<string, string> = {},
  /** How often to ask whether the server is up (a cold-start measurement asks often). */
  pollMs = 250,
): Promise<NextServer> {
  if (!fs.existsSync(path.join(root, '.next', 'BUILD_ID')))
    throw new Error('no production build: run `npx next build` first');
  const port = await freePort();
  const db = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-bench-db-'));
  const child = spawn(path.join(root, 'node_modules', '.bin', 'next'), nextStartArgs(port), {
    cwd: root,
    env: {
      ...process.env,
      MESHDX_KUBECONFIG: kubeconfig,
      MESHDX_DB: db,
      NEXT_TELEMETRY_DISABLED: '1',
      ...imageMemoryEnv(),
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise<void>((resolve) => {
      fs.rmSync(db, { recursive: true, force: true });
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  const until = Date.now() + 60_000;
  for (;;) {
    // /api/contexts reads only the kubeconfig: the server is up, whatever the cluster does
    const ok = await fetch(`${url}/api/contexts`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (child.exitCode !== null || Date.now() > until) {
      await stop();
      throw new Error('next start did not answer within 60 s');
    }
    await new Promise((r) => setTimeout(r, pollMs));
  }
  const pid = listenerPid(port) ?? child.pid ?? -1;
  return { url, pid, stop };
}

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/** CPU time (user + system) a process has used so far, in ms (/proc/PID/stat). */
export function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // the fields after the command name (which may hold spaces) in parentheses
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / CLOCK_TICKS;
}

/** Peak resident set size of a process so far (VmHWM), in MB. */
export function vmHwmMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)\s+kB/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

interface HealthWatch {
  listed?: boolean;
  state?: string;
  events?: number;
}

/** Waits until the server's pod and event watches have listed (GET /api/health), in ms. */
export async function waitForWatches(url: string, timeoutMs = 300_000): Promise<number> {
  const t0 = Date.now();
  // the first view starts the runtime; the header's cluster info is the cheapest
  await fetch(`${url}/api/cluster`).catch(() => undefined);
  for (;;) {
    const h = (await fetch(`${url}/api/health`)
      .then((r) => r.json())
      .catch(() => null)) as {
      runtimes?: { watches?: { pods?: HealthWatch; events?: HealthWatch } }[];
    } | null;
    const w = h?.runtimes?.[0]?.watches;
    if (w?.pods?.listed && w.events?.listed) return Date.now() - t0;
    if (Date.now() - t0 > timeoutMs) throw new Error(`watches not listed within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

export function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0);
}
