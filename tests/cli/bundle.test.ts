import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fakeIO, tempDir } from '../../test-support/cli-io';
import { run as attribute } from '../../cli/commands/attribute';
import { openHistoryStore } from '../../server/store/history-store';
import { makePod, observed, T0, MIN } from '../data/store/pods';
import { uglyLog } from '../data/ledger/scan-log';

const root = path.resolve(import.meta.dirname, '..', '..');
const dir = tempDir('bundle');
// inside the project, as the default cache is: the bundle finds its packages from there
const cache = path.join(root, 'node_modules', '.cache', `meshdx-cli-test-${process.pid}`);
afterAll(() => fs.rmSync(cache, { recursive: true, force: true }));

function meshdx(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(root, 'bin', 'meshdx.mjs'), ...args],
      { cwd: dir, env: { ...process.env, MESHDX_CLI_CACHE: cache }, maxBuffer: 64 << 20 },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? -1) : 0, stdout, stderr }),
    );
  });
}

/** A store with the pods the ugly log's upstream IPs belonged to. */
function store(): string {
  const file = path.join(dir, 'history.sqlite');
  const s = openHistoryStore(file, { flushIntervalMs: 0 });
  const a = makePod({ name: 'pay-a', ip: '10.8.0.5', start: T0 });
  s.recordPodEvent(observed('ADDED', a, T0));
  const deleting = makePod({ name: 'pay-a', ip: '10.8.0.5', start: T0, deletionAt: T0 + 10 * MIN });
  s.recordPodEvent(observed('MODIFIED', deleting, T0 + 10 * MIN));
  s.recordPodEvent(observed('DELETED', deleting, T0 + 11 * MIN));
  s.recordPodEvent(observed('ADDED', makePod({ name: 'pay-b', ip: '10.8.0.6', start: T0 }), T0));
  s.close();
  return file;
}

describe('the bundled command line', () => {
  // over two 8 MiB segments, so that the bundled scan worker takes part
  const one = uglyLog();
  const log = path.join(dir, 'big.log');
  const copies = Math.ceil((10 * 1024 * 1024) / one.length);
  fs.writeFileSync(
    log,
    Buffer.concat(Array.from({ length: copies }, () => [one, Buffer.from('\n')]).flat()),
  );
  const history = store();

  it('builds a bundle once and answers what the sources answer, worker thread included', async () => {
    const io = fakeIO(dir);
    expect(await attribute([log, '--history', history, '--json', '--threads', '1'], io)).toBe(0);
    const want = JSON.parse(io.out) as { requests: number; attributions: unknown[] };
    expect(want.attributions.length).toBeGreaterThan(copies * 10);

    const first = await meshdx([
      'attribute',
      log,
      '--history',
      history,
      '--json',
      '--threads',
      '2',
    ]);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual(want);
    const manifest = JSON.parse(fs.readFileSync(path.join(cache, 'current.json'), 'utf8')) as {
      build: string;
      inputs: Record<string, unknown>;
    };
    expect(Object.keys(manifest.inputs)).toContain('cli/logscan/scan-worker.ts');
    // entries and their shared chunks side by side (the worker entry is found from a chunk)
    const built = fs.readdirSync(path.join(cache, manifest.build));
    expect(built).toEqual(
      expect.arrayContaining([
        'cli.mjs',
        'scan-worker-entry.mjs',
        'attribute-capture-worker-entry.mjs',
      ]),
    );
    // the attribute command is one chunk of its own (the capture worker is an entry, not a chunk)
    const chunks = built.filter(
      (f) => f.startsWith('attribute-') && f !== 'attribute-capture-worker-entry.mjs',
    );
    expect(chunks).toHaveLength(1);
    expect(manifest.inputs).toHaveProperty(['bin/cli-bundle.mjs']);

    // a second run uses the same build
    const again = await meshdx(['attribute', log, '--history', history, '--json']);
    expect(again.stdout).toBe(first.stdout);
    const after = JSON.parse(fs.readFileSync(path.join(cache, 'current.json'), 'utf8')) as {
      build: string;
    };
    expect(after.build).toBe(manifest.build);
  }, 120_000);

  it('ends quietly, as grep does, when its reader goes away (| head)', async () => {
    const child = spawn(
      process.execPath,
      [path.join(root, 'bin', 'meshdx.mjs'), 'attribute', log, '--history', history, '--json'],
      { cwd: dir, env: { ...process.env, MESHDX_CLI_CACHE: cache } },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // the first chunk read, the pipe is closed: the report's next write finds no reader
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(141);
  }, 120_000);

  it('rebuilds when its manifest does not match the sources', async () => {
    fs.mkdirSync(cache, { recursive: true });
    fs.writeFileSync(
      path.join(cache, 'current.json'),
      JSON.stringify({ build: 'gone', node: process.version, inputs: { 'cli/main.ts': [1, 1] } }),
    );
    const r = await meshdx(['accesslog', log, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ lines: expect.any(Number) });
    const m = JSON.parse(fs.readFileSync(path.join(cache, 'current.json'), 'utf8')) as {
      build: string;
    };
    expect(m.build).not.toBe('gone');
  }, 120_000);
});
