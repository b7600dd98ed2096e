import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/cli-io';
import {
  claimDataDir,
  claimFile,
  kubeconfigPath,
  parseDemoArgs,
  processStart,
  releaseDataDir,
} from '../../bin/demo-options.mjs';
import { CHILD_PROCESS_GUARD_MS } from '../../test-support/deadlines';

const root = path.resolve(import.meta.dirname, '..', '..');
const dir = tempDir('demo');

/**
 * Runs bin/demo.mjs. Every case here ends before it builds or starts anything; one that would
 * go on (a regression) is stopped after 20 s rather than left building.
 */
function demo(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env };
  delete env.PORT;
  delete env.HOST;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(root, 'bin', 'demo.mjs'), ...args],
      { cwd: dir, env, timeout: CHILD_PROCESS_GUARD_MS },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? -1) : 0, stdout, stderr }),
    );
  });
}

function options(argv: string[], env: Record<string, string> = {}) {
  const r = parseDemoArgs(argv, env, root);
  if (!('options' in r)) throw new Error(`not parsed: ${JSON.stringify(r)}`);
  return r.options;
}

function problem(argv: string[]): string {
  const r = parseDemoArgs(argv, {}, root);
  if (!('error' in r)) throw new Error(`no error: ${JSON.stringify(r)}`);
  return r.error;
}

/** A port nothing listens on at this moment. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

describe('npm run demo: its flags', () => {
  it('prints its usage for --help and -h and exits 0, before building anything', async () => {
    for (const flag of ['--help', '-h']) {
      const r = await demo([flag]);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout).toMatch(/^usage: npm run demo -- /);
      expect(r.stdout).toContain('--data-dir DIR');
      expect(r.stdout).not.toContain('building');
    }
    // help wins over a wrong flag beside it
    expect((await demo(['--bogus', '--help'])).code).toBe(0);
  });

  it('names a wrong flag with the usage and exits 2, never with a stack trace', async () => {
    const cases: [string[], string][] = [
      [['--bogus'], 'meshdx demo: unknown option --bogus\n'],
      [['-x'], 'meshdx demo: unknown option -x\n'],
      [['--port'], 'meshdx demo: --port needs a value\n'],
      [['--port', '--rebuild'], 'meshdx demo: --port needs a value (got --rebuild;'],
      [['--rebuild=yes'], 'meshdx demo: --rebuild takes no value\n'],
      [['8080'], 'meshdx demo: unexpected argument 8080\n'],
      [['--port', '70000'], 'meshdx demo: --port 70000 is not a TCP port'],
      [['--scenario', '../../etc'], 'meshdx demo: --scenario ../../etc is not a scenario name'],
      [['--clock', 'soon'], 'meshdx demo: --clock soon is not a time'],
    ];
    for (const [args, message] of cases) {
      const r = await demo(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.startsWith(message), r.stderr).toBe(true);
      expect(r.stderr).toContain('usage: npm run demo -- ');
      expect(r.stderr).not.toMatch(/ERR_PARSE_ARGS|\n\s+at /);
    }
  });

  it('reads its defaults from the environment and its flags over them', () => {
    expect(options([])).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      scenarios: ['demo'],
      clock: undefined,
      rebuild: false,
      freshHistory: false,
    });
    expect(options([], { PORT: '8080', HOST: '0.0.0.0' })).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
    });
    expect(options(['--port=9090'], { PORT: '8080' }).port).toBe(9090);
    expect(
      options(['--scenario', 'demo, phantom-503,demo', '--clock', '2026-11-01T12:00:00Z']),
    ).toMatchObject({ scenarios: ['demo', 'phantom-503'], clock: '2026-11-01T12:00:00Z' });
    expect(problem(['--scenario', ' , '])).toBe('--scenario names no scenario');
    expect(problem(['--port', '3000x'])).toContain('is not a TCP port');
  });
});

describe('npm run demo: where a demo keeps its clusters', () => {
  it('gives each port its own folder by default, so a second demo has its own kubeconfig', () => {
    const first = options([]);
    const second = options(['--port', '3001']);
    expect(first.dataDir).toBe(path.join(root, 'data', 'demo-3000'));
    expect(second.dataDir).toBe(path.join(root, 'data', 'demo-3001'));
    expect(kubeconfigPath(first.dataDir, 'demo')).not.toBe(kubeconfigPath(second.dataDir, 'demo'));
    expect(kubeconfigPath(second.dataDir, 'demo')).toBe(
      path.join(root, 'data', 'demo-3001', 'sim-demo.kubeconfig'),
    );
    // PORT chooses the folder as --port does
    expect(options([], { PORT: '3002' }).dataDir).toBe(path.join(root, 'data', 'demo-3002'));
    // --data-dir is taken as given, relative to where the demo is started
    expect(options(['--data-dir', 'x/y']).dataDir).toBe(path.resolve('x/y'));
    expect(problem(['--data-dir', ' '])).toBe('--data-dir is empty');
  });

  it('lets one running demo hold a folder; one that is gone gives it up', async () => {
    const folder = path.join(dir, 'claimed');
    const mine = { pid: process.pid, url: 'http://127.0.0.1:3000/' };
    expect(await claimDataDir(folder, mine)).toEqual({ ok: true });
    // the same process again (a restart within it) keeps it
    expect(await claimDataDir(folder, mine)).toEqual({ ok: true });

    // another process that runs: refused, naming it and its URL
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      const pid = other.pid as number;
      releaseDataDir(folder, process.pid);
      expect(fs.existsSync(claimFile(folder))).toBe(false);
      expect(await claimDataDir(folder, { pid, url: 'http://127.0.0.1:3001/' })).toEqual({
        ok: true,
      });
      expect(await claimDataDir(folder, mine)).toEqual({
        heldBy: { pid, url: 'http://127.0.0.1:3001/' },
      });
      // releasing what another demo holds leaves it held
      releaseDataDir(folder, process.pid);
      expect(fs.existsSync(claimFile(folder))).toBe(true);
    } finally {
      other.kill();
    }
    await new Promise((r) => other.once('exit', r));
    // its demo is gone: taken over
    expect(await claimDataDir(folder, mine)).toEqual({ ok: true });
    expect(JSON.parse(fs.readFileSync(claimFile(folder), 'utf8'))).toEqual({
      ...mine,
      started: processStart(process.pid),
    });
    // a demo killed without giving the folder up, whose id another process got since: the id
    // runs, but did not start when the claim's did
    releaseDataDir(folder, process.pid);
    const reused = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      const pid = reused.pid as number;
      fs.writeFileSync(
        claimFile(folder),
        JSON.stringify({ pid, url: 'http://127.0.0.1:3001/', started: '1' }),
      );
      expect(await claimDataDir(folder, mine)).toEqual({ ok: true });
    } finally {
      reused.kill();
    }
    // a file no demo could have written whole is taken over too
    releaseDataDir(folder, process.pid);
    fs.writeFileSync(claimFile(folder), '{"pi');
    expect(await claimDataDir(folder, mine)).toEqual({ ok: true });
    releaseDataDir(folder, process.pid);
  });

  it('refuses to start on a folder a running demo holds, before building or starting a simulator', async () => {
    const folder = path.join(dir, 'held');
    fs.mkdirSync(folder);
    const kubeconfig = kubeconfigPath(folder, 'demo');
    fs.writeFileSync(kubeconfig, 'the first demo');
    // this test's process stands for the running demo
    fs.writeFileSync(
      claimFile(folder),
      JSON.stringify({ pid: process.pid, url: 'http://127.0.0.1:3000/' }),
    );
    const r = await demo(['--port', String(await freePort()), '--data-dir', folder]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`is used by the demo running as pid ${process.pid}`);
    expect(r.stderr).toContain('(http://127.0.0.1:3000/)');
    expect(r.stderr).toContain('--data-dir DIR');
    expect(r.stdout).toBe('');
    // the first demo's kubeconfig and claim are as they were
    expect(fs.readFileSync(kubeconfig, 'utf8')).toBe('the first demo');
    expect(JSON.parse(fs.readFileSync(claimFile(folder), 'utf8')).pid).toBe(process.pid);
  });
});
