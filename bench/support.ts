import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  /** Lower is better unless said otherwise. */
  target?: number;
  /** For a figure where higher is better: the least it must reach. */
  min?: number;
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
    // its own process group: tsx runs the simulator in a node child of its own, and stop()
    // ends both (a simulator left running would load the next benchmark's machine)
    detached: true,
  });
  const until = Date.now() + 120_000;
  // the file appears before its text is in: wait for the server line
  let kubeconfigYaml = '';
  let url = '';
  while (!url) {
    if (child.exitCode !== null) throw new Error(`simulator exited with ${child.exitCode}`);
    if (Date.now() > until) throw new Error('simulator did not start within 120 s');
    await new Promise((r) => setTimeout(r, 100));
    kubeconfigYaml = fs.existsSync(kubeconfig) ? fs.readFileSync(kubeconfig, 'utf8') : '';
    url = /server:\s*(\S+)/.exec(kubeconfigYaml)?.[1] ?? '';
  }
  return {
    kubeconfig,
    kubeconfigYaml,
    url,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        try {
          if (child.pid) process.kill(-child.pid, 'SIGTERM');
          else child.kill('SIGTERM');
        } catch {
          child.kill('SIGTERM');
        }
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

/**
 * The fields of /proc/PID/stat after the command name (which may hold spaces and parentheses):
 * [0] state, [1] ppid, ... [11] utime, [12] stime; null once the process is gone.
 */
function statFields(pid: number | string): string[] | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** CPU time of one process (user + system, ms); 0 once it is gone. */
function processCpuMs(pid: number): number {
  const f = statFields(pid);
  return f ? ((Number(f[11]) + Number(f[12])) * 1000) / CLOCK_TICKS : 0;
}

/** Linux's USER_HZ: /proc counts CPU time in these ticks. */
const CLOCK_TICKS = 100;

/**
 * CPU time (user + system, ms) of a process and every process below it, read from /proc: the
 * simulator runs as tsx's child, so its own pid says nothing. Processes that ended in between
 * are not counted.
 */
export function processTreeCpuMs(root: number): number {
  const children = new Map<number, number[]>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const f = statFields(name); // null: gone while listed
    if (!f) continue;
    const ppid = Number(f[1]);
    children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
  }
  let total = 0;
  const todo = [root];
  for (let pid = todo.pop(); pid !== undefined; pid = todo.pop()) {
    total += processCpuMs(pid);
    todo.push(...(children.get(pid) ?? []));
  }
  return total;
}
