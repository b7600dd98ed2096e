/**
 * `kubectl meshdx COMMAND ...`: kubectl's plugin (bin/kubectl-meshdx.mjs, on the PATH as
 * `kubectl-meshdx`). meshdx's commands with kubectl's own flags: `findings` and `timeline` read
 * the cluster through kubectl (capture.ts) and judge what it gave, `gather` and `open` take the
 * kubeconfig and context as their own options, the commands that read files run as they are.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EXIT_USAGE, type CliIO } from '../io';
import {
  captureForFindings,
  captureForTimeline,
  KubectlReadError,
  type RunKubectl,
} from './capture';
import { kubectlGlobalArgs, readKubectlFlags, type KubectlFlags } from './flags';

export const PLUGIN_USAGE = `usage: kubectl meshdx COMMAND [kubectl flags] [options]

meshdx as a kubectl plugin. kubectl's flags: --kubeconfig FILE, --context NAME,
-n/--namespace NS, -A/--all-namespaces, and -i/--istio-namespace NS (Istio's root
namespace, default istio-system).

  findings [options]      the findings of the namespace (-n, else the context's) or of every
                          namespace (-A), judged on the whole cluster as istioctl analyze
                          judges it, read through kubectl; the options of meshdx findings
  timeline [POD...]       sidecar startup and shutdown verdicts of the pods named, or of every
                          pod of the namespace; with the mesh config of the root namespace
  gather -o FILE [...]    the cluster as an istioctl bug-report archive (meshdx gather)
  open ARCHIVE... [...]   the dashboard on archives, beside the kubeconfig's contexts
  clusters|accesslog|attribute|report ...   as meshdx runs them (they read files)
`;

/** The meshdx command line (cli/main.ts's main), handed over by bin/kubectl-meshdx.mjs. */
export type MeshdxMain = (argv: string[], io: CliIO) => Promise<number>;

/** kubectl from the PATH, with the user's kubeconfig and context before every verb. */
function kubectlRunner(flags: KubectlFlags): RunKubectl {
  const global = kubectlGlobalArgs(flags);
  return (args, file) =>
    new Promise((resolve) => {
      const fd = file === null ? null : fs.openSync(file, 'w');
      const child = spawn('kubectl', [...global, ...args], {
        stdio: ['ignore', fd ?? 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
      const done = (code: number, more = '') => {
        if (fd !== null) fs.closeSync(fd);
        resolve({ code, stdout, stderr: stderr + more });
      };
      child.once('error', (e) => done(127, `${e.message} (is kubectl on the PATH?)`));
      child.once('close', (code) => done(code ?? 1));
    });
}

/** Pod names among timeline's arguments: what is no option (--mesh-config takes a value). */
function splitPods(rest: readonly string[]): { pods: string[]; options: string[] } {
  const pods: string[] = [];
  const options: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i] as string;
    if (a === '--mesh-config') options.push(a, ...(rest[i + 1] !== undefined ? [rest[++i]!] : []));
    else if (a.startsWith('-')) options.push(a);
    else pods.push(a);
  }
  return { pods, options };
}

async function inTempDir(run: (dir: string) => Promise<number>): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubectl-meshdx-'));
  try {
    return await run(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** kubectl's flags that a command reading files has no use for: named, never dropped. */
function unused(
  flags: KubectlFlags,
  command: string,
  which: (keyof KubectlFlags)[],
): string | null {
  const given = which.filter((k) =>
    k === 'allNamespaces' ? flags.allNamespaces : flags[k] !== null && k !== 'istioNamespace',
  );
  return given.length === 0
    ? null
    : `kubectl meshdx ${command}: ${given.map((k) => `--${k === 'allNamespaces' ? 'all-namespaces' : k}`).join(', ')} not taken: ${command} ${command === 'open' ? 'puts every context of the kubeconfig in its picker' : 'reads files, not the cluster'}`;
}

export async function kubectlPlugin(
  argv: string[],
  io: CliIO,
  meshdx: MeshdxMain,
  runKubectl?: (flags: KubectlFlags) => RunKubectl,
): Promise<number> {
  const [command, ...args] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    (command === undefined ? io.stderr : io.stdout)(PLUGIN_USAGE);
    return command === undefined ? EXIT_USAGE : 0;
  }
  if (args.includes('--help') || args.includes('-h')) return meshdx([command, '--help'], io);
  const flags = readKubectlFlags(args);
  if (typeof flags === 'string') {
    io.stderr(`kubectl meshdx ${command}: ${flags}\n${PLUGIN_USAGE}`);
    return EXIT_USAGE;
  }
  const kubectl = (runKubectl ?? kubectlRunner)(flags);
  try {
    switch (command) {
      case 'findings':
        return await inTempDir(async (dir) => {
          const c = await captureForFindings(kubectl, flags, dir);
          return meshdx(
            [
              'findings',
              dir,
              '--from-cluster',
              ...(c.namespace !== null ? ['--namespace', c.namespace] : []),
              ...flags.rest,
            ],
            io,
          );
        });
      case 'timeline':
        return await inTempDir(async (dir) => {
          const { pods, options } = splitPods(flags.rest);
          const mesh = await captureForTimeline(kubectl, flags, pods, dir);
          const given = options.includes('--mesh-config');
          return meshdx(
            [
              'timeline',
              path.join(dir, 'pods.json'),
              ...(mesh !== null && !given ? ['--mesh-config', mesh] : []),
              ...options,
            ],
            io,
          );
        });
      case 'gather':
        return await meshdx(
          [
            'gather',
            ...(flags.kubeconfig !== null ? ['--kubeconfig', flags.kubeconfig] : []),
            ...(flags.context !== null ? ['--context', flags.context] : []),
            ...(flags.namespace !== null ? ['--namespace', flags.namespace] : []),
            ...flags.rest,
          ],
          io,
        );
      case 'open': {
        const bad = unused(flags, 'open', ['context', 'namespace', 'allNamespaces']);
        if (bad) {
          io.stderr(`${bad}\n`);
          return EXIT_USAGE;
        }
        // meshdx open takes the live contexts from KUBECONFIG, as kubectl does
        if (flags.kubeconfig !== null) process.env.KUBECONFIG = path.resolve(flags.kubeconfig);
        return await meshdx(['open', ...flags.rest], io);
      }
      default: {
        const bad = unused(flags, command, ['context', 'kubeconfig', 'namespace', 'allNamespaces']);
        if (bad) {
          io.stderr(`${bad}\n`);
          return EXIT_USAGE;
        }
        return await meshdx([command, ...flags.rest], io);
      }
    }
  } catch (e) {
    if (!(e instanceof KubectlReadError)) throw e;
    io.stderr(`kubectl meshdx ${command}: ${e.message}\n`);
    return EXIT_USAGE;
  }
}
