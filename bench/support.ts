import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  /** Lower is better unless said otherwise. */
  target?: number;
  note?: string;
}

const root = path.resolve(import.meta.dirname, '..');

export interface SimProcess {
  kubeconfig: string;
  kubeconfigYaml: string;
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts the simulator as its own process, so the numbers measured here are meshdx's alone. */
export async function startSimProcess(
  scenario: string,
  params: Record<string, string> = {},
  extra: string[] = [],
): Promise<SimProcess> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-bench-'));
  const kubeconfig = path.join(dir, 'kubeconfig');
  const args = [
    'server/sim/main.ts',
    '--scenario',
    scenario,
    '--port',
    '0',
    '--kubeconfig',
    kubeconfig,
    '--clock',
    '2026-11-01T12:00:00Z',
    ...extra,
  ];
  for (const [k, v] of Object.entries(params)) args.push('--param', `${k}=${v}`);
  const child = spawn(path.join(root, 'node_modules', '.bin', 'tsx'), args, {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const until = Date.now() + 120_000;
  while (!fs.existsSync(kubeconfig)) {
    if (child.exitCode !== null) throw new Error(`simulator exited with ${child.exitCode}`);
    if (Date.now() > until) throw new Error('simulator did not start within 120 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  await new Promise((r) => setTimeout(r, 100));
  const kubeconfigYaml = fs.readFileSync(kubeconfig, 'utf8');
  const url = /server:\s*(\S+)/.exec(kubeconfigYaml)?.[1] ?? '';
  return {
    kubeconfig,
    kubeconfigYaml,
    url,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        fs.rmSync(dir, { recursive: true, force: true });
      }),
  };
}

/** Peak resident set size of this process so far, in MB. */
export function peakRssMb(): number {
  return process.resourceUsage().maxRSS / 1024;
}

export function ms(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** A free TCP port on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

/** A /proc/PID/status size field (VmHWM, VmRSS...) in MB, or null when the process is gone. */
export function procStatusMb(pid: number, field: 'VmHWM' | 'VmRSS'): number | null {
  let status: string;
  try {
    status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const kb = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1];
  return kb === undefined ? null : Number(kb) / 1024;
}

export interface ServerProcess {
  url: string;
  pid: number;
  /** The server process's peak resident set (VmHWM) so far, in MB. */
  peakRssMb(): number;
  /** Everything the server printed, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * The production server as the product starts it (`npm start`: `next start` on the last
 * `next build`) on a free loopback port, against a kubeconfig, with its history in a temp dir.
 * Resolves once GET /api/health says the default runtime's pod watch has listed.
 */
export async function startServer(opts: {
  kubeconfig: string;
  env?: Record<string, string>;
  timeoutMs?: number;
}): Promise<ServerProcess> {
  if (!fs.existsSync(path.join(root, '.next', 'BUILD_ID')))
    throw new Error('no production build: run `npx next build` first');
  const port = await freePort();
  const db = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-bench-db-'));
  let out = '';
  const child = spawn(
    path.join(root, 'node_modules', '.bin', 'next'),
    ['start', '-p', String(port), '-H', '127.0.0.1'],
    {
      cwd: root,
      env: {
        ...process.env,
        NEXT_TELEMETRY_DISABLED: '1',
        MESHDX_KUBECONFIG: opts.kubeconfig,
        MESHDX_DB: db,
        ...opts.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const pid = child.pid ?? 0;
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    fs.rmSync(db, { recursive: true, force: true });
  };
  const until = Date.now() + (opts.timeoutMs ?? 180_000);
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`next start exited (${child.exitCode}):\n${out}`);
    }
    const listed = await fetch(`${url}/api/health`).then(
      async (r) => {
        if (!r.ok) return false;
        const h = (await r.json()) as {
          runtimes?: { watches?: { pods?: { listed?: boolean } } }[];
        };
        return h.runtimes?.[0]?.watches?.pods?.listed === true;
      },
      () => false,
    );
    if (listed) break;
    if (Date.now() > until) {
      await stop();
      throw new Error(`the server's pod watch had not listed within its time:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    pid,
    peakRssMb: () => {
      const mb = procStatusMb(pid, 'VmHWM');
      if (mb === null) throw new Error(`the server (pid ${pid}) is gone: no VmHWM to read`);
      return mb;
    },
    output: () => out,
    stop,
  };
}
