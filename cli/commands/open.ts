/**
 * `meshdx open ARCHIVE|DIR... [--port N] [--host H] [--data-dir DIR] [--no-live]`: serves the
 * dashboard on `istioctl bug-report` archives. Each archive is served by a read-only API server
 * of its own on loopback (server/archive, started as its own process: the command line reaches
 * no server module), one kubeconfig context per archive, beside the live contexts of the
 * kubeconfig; the dashboard is the production build, the same views a live cluster gets.
 * Everything it writes (the archives' kubeconfig, their history stores) is under the data folder.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { EXIT_FAIL, EXIT_OK, EXIT_USAGE, optionsProblem, type CliIO } from '../io';

export const USAGE = `usage: meshdx open ARCHIVE|DIR... [--port N] [--host H] [--data-dir DIR] [--no-live]

Serves the dashboard on istioctl bug-report archives (bug-report.tar.gz, .tgz, or the folder it
unpacks to), each one a context beside the live contexts of your kubeconfig.

  --port N        the dashboard's port (default 3000)
  --host H        the address it listens on (default 127.0.0.1)
  --data-dir DIR  where the archives' kubeconfig and history go (default ./data)
  --no-live       only the archives, not the kubeconfig's contexts
`;

const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  'data-dir': { type: 'string' },
  'no-live': { type: 'boolean' },
} as const;

export interface OpenOptions {
  archives: string[];
  port: number;
  host: string;
  dataDir: string;
  live: boolean;
}

export function parseOpenArgs(argv: string[], cwd: string): OpenOptions | { error: string } {
  const problem = optionsProblem(argv, OPTIONS, true);
  if (problem) return { error: problem };
  const { values, positionals } = parseArgs({
    args: argv,
    options: OPTIONS,
    allowPositionals: true,
  });
  if (positionals.length === 0)
    return { error: 'an ARCHIVE (a bug-report .tar.gz or its folder) is needed' };
  const port = values.port === undefined ? 3000 : Number(values.port);
  if (!/^\d+$/.test(values.port ?? '3000') || !Number.isInteger(port) || port < 1 || port > 65535)
    return { error: `--port wants a port number from 1 to 65535, got "${values.port}"` };
  const archives = positionals.map((p) => path.resolve(cwd, p));
  for (const [i, a] of archives.entries()) {
    if (!fs.existsSync(a)) return { error: `${positionals[i]}: no such file or folder` };
  }
  return {
    archives,
    port,
    host: values.host ?? '127.0.0.1',
    dataDir: path.resolve(cwd, values['data-dir'] ?? 'data'),
    live: !values['no-live'],
  };
}

/** The project folder: where package.json names meshdx (from the sources or the CLI bundle). */
function projectRoot(): string {
  let dir = import.meta.dirname;
  for (;;) {
    const pkg = path.join(dir, 'package.json');
    if (
      fs.existsSync(pkg) &&
      (JSON.parse(fs.readFileSync(pkg, 'utf8')) as { name?: string }).name === 'meshdx'
    )
      return dir;
    const up = path.dirname(dir);
    if (up === dir)
      throw new Error('the meshdx project folder was not found above the command line');
    dir = up;
  }
}

/** The live kubeconfig files, as meshdx would read them (MESHDX_KUBECONFIG, KUBECONFIG, ~/.kube/config). */
function liveKubeconfigs(env: NodeJS.ProcessEnv): string[] {
  const list = env.MESHDX_KUBECONFIG ?? env.KUBECONFIG;
  if (list) return list.split(path.delimiter).filter((f) => f && fs.existsSync(f));
  const home = path.join(os.homedir(), '.kube', 'config');
  return fs.existsSync(home) ? [home] : [];
}

async function waitFor(
  check: () => boolean | Promise<boolean>,
  running: () => boolean,
  what: string,
): Promise<void> {
  for (;;) {
    if (await check()) return;
    if (!running()) throw new Error(`stopped before ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function run(argv: string[], io: CliIO): Promise<number> {
  const parsed = parseOpenArgs(argv, io.cwd);
  if ('error' in parsed) {
    io.stderr(`meshdx open: ${parsed.error}\n${USAGE}`);
    return EXIT_USAGE;
  }
  const root = projectRoot();
  const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);
  fs.mkdirSync(parsed.dataDir, { recursive: true });
  const kubeconfig = path.join(parsed.dataDir, `archives-${process.pid}.kubeconfig`);
  const children: ChildProcess[] = [];
  const stopAll = (): void => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
    fs.rmSync(kubeconfig, { force: true });
  };
  process.once('SIGINT', stopAll);
  process.once('SIGTERM', stopAll);
  try {
    const server = spawn(
      bin('tsx'),
      [
        path.join(root, 'server/archive/main.ts'),
        '--kubeconfig',
        kubeconfig,
        '--data-dir',
        parsed.dataDir,
        ...parsed.archives,
      ],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    children.push(server);
    server.stdout?.on('data', (d: Buffer) => io.stdout(d.toString()));
    let serverErr = '';
    server.stderr?.on('data', (d: Buffer) => (serverErr += d.toString()));
    await waitFor(
      () => fs.existsSync(kubeconfig),
      () => server.exitCode === null,
      'the archives were read',
    ).catch(() => {
      throw new Error(serverErr.trim() || 'meshdx open: the archive server stopped');
    });
    if (!fs.existsSync(path.join(root, '.next', 'BUILD_ID'))) {
      io.stdout('meshdx open: building the dashboard (next build)…\n');
      const b = spawnSync(bin('next'), ['build'], { cwd: root, stdio: 'inherit' });
      if (b.status !== 0) throw new Error('next build failed');
    }
    const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
    const live = parsed.live ? liveKubeconfigs(env) : [];
    delete env.MESHDX_KUBECONFIG;
    delete env.MESHDX_CONTEXT;
    env.KUBECONFIG = [kubeconfig, ...live].join(path.delimiter);
    env.MESHDX_DB = parsed.dataDir;
    // with archives alone, every API server is one of this machine's archive servers, not a
    // shared control plane: the request budget meant for real clusters would only slow the
    // views (2,000 proxies at 50 requests/s are 40 s). Beside live contexts it stays theirs.
    if (!parsed.live) {
      env.MESHDX_API_QPS = env.MESHDX_API_QPS ?? '1000';
      env.MESHDX_API_BURST = env.MESHDX_API_BURST ?? '5000';
    }
    const next = spawn(
      bin('next'),
      ['start', '-p', String(parsed.port), '-H', parsed.host, '--keepAliveTimeout', '65000'],
      { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], env },
    );
    children.push(next);
    const host = parsed.host.includes(':')
      ? `[${parsed.host}]`
      : parsed.host === '0.0.0.0'
        ? 'localhost'
        : parsed.host;
    const url = `http://${host}:${parsed.port}/`;
    await waitFor(
      () =>
        fetch(new URL('api/cluster', url)).then(
          (r) => r.ok,
          () => false,
        ),
      () => next.exitCode === null,
      'the dashboard answered',
    );
    io.stdout(
      `\nmeshdx is serving ${parsed.archives.length === 1 ? 'the archive' : `${parsed.archives.length} archives`}: ${url}${live.length > 0 ? " (the kubeconfig's live contexts are in the picker too)" : ''}\n`,
    );
    const ended = await Promise.race(
      children.map((c) => new Promise<number>((r) => c.once('exit', (code) => r(code ?? 0)))),
    );
    stopAll();
    return ended === 0 ? EXIT_OK : EXIT_FAIL;
  } catch (e) {
    stopAll();
    io.stderr(
      `meshdx open: ${e instanceof Error ? e.message.replace(/^meshdx open: /, '') : String(e)}\n`,
    );
    return EXIT_FAIL;
  }
}
