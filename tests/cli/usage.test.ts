import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../cli/main';
import { fakeIO, tempDir } from '../../test-support/cli-io';
import { CHILD_PROCESS_GUARD_MS } from '../../test-support/deadlines';

const root = path.resolve(import.meta.dirname, '..', '..');
const dir = tempDir('usage');
// inside the project, as the default cache is: the bundle finds its packages from there
const cache = path.join(root, 'node_modules', '.cache', `meshdx-cli-usage-${process.pid}`);
afterAll(() => fs.rmSync(cache, { recursive: true, force: true }));

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

function meshdx(args: string[]): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(root, 'bin', 'meshdx.mjs'), ...args],
      {
        cwd: dir,
        env: { ...process.env, MESHDX_CLI_CACHE: cache },
        timeout: CHILD_PROCESS_GUARD_MS,
      },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? -1) : 0, stdout, stderr }),
    );
  });
}

/** A wrong use: exit 2, the one-line reason naming what is wrong, then the command's usage. */
function expectUsageError(r: Ran, command: string, reason: string): void {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  const [first, ...rest] = r.stderr.split('\n');
  expect(first).toContain(`meshdx ${command}: `);
  expect(`${first}\n`).toContain(reason);
  expect(rest.join('\n')).toMatch(new RegExp(`^usage: meshdx ${command} `));
  expect(r.stderr).not.toMatch(/ERR_PARSE_ARGS|Error:|\n\s+at /);
}

/** Each command, a valued option of it given last (so without its value), and a switch. */
const COMMANDS: [command: string, valued: string, sw: string][] = [
  ['timeline', '--mesh-config', '--json'],
  ['clusters', '--history', '--endpoints'],
  ['accesslog', '--format', '--json'],
  ['attribute', '--history', '--no-prescan'],
  ['findings', '--mesh-config', '--json'],
  ['report', '--url', '--pdf'],
  ['open', '--port', '--no-live'],
];

describe('meshdx: help and wrong flags, from the real command line', () => {
  // the first run builds the bundle the others use
  beforeAll(async () => {
    expect((await meshdx(['--help'])).code).toBe(0);
  }, 120_000);

  it('prints the overall usage for --help, and refuses no command or an unknown one', async () => {
    const [help, short, word, none, unknown, flag, proto] = await Promise.all([
      meshdx(['--help']),
      meshdx(['-h']),
      meshdx(['help']),
      meshdx([]),
      meshdx(['clusterz', 'dump.json']),
      meshdx(['--bogus']),
      meshdx(['constructor']),
    ]);
    for (const r of [help, short, word]) {
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout).toMatch(/^usage:\n {2}meshdx timeline /);
      expect(r.stdout).toContain('meshdx COMMAND --help');
    }
    expect(none.code).toBe(2);
    expect(none.stdout).toBe('');
    expect(none.stderr).toMatch(/^meshdx: a COMMAND is needed\nusage:\n/);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^meshdx: unknown command "clusterz"\nusage:\n/);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/^meshdx: unknown option --bogus\nusage:\n/);
    // a name Object.prototype has is no command either
    expect(proto.stderr).toContain('unknown command "constructor"');
  });

  it.each(COMMANDS)(
    'meshdx %s: --help prints its usage, a wrong flag the flag and its usage',
    async (command) => {
      const [help, short, bogus] = await Promise.all([
        meshdx([command, 'input.txt', '--help']),
        meshdx([command, 'input.txt', '-h']),
        meshdx([command, 'input.txt', '--bogus']),
      ]);
      for (const r of [help, short]) {
        expect(r.code).toBe(0);
        expect(r.stderr).toBe('');
        expect(r.stdout).toMatch(new RegExp(`^usage: meshdx ${command} `));
      }
      expectUsageError(bogus, command, 'unknown option --bogus');
    },
  );

  it.each(COMMANDS)(
    'meshdx %s: names a short flag, a missing value and a value given to a switch',
    async (command, valued, sw) => {
      const cases: [string[], string][] = [
        // named without the value it was given
        [['--bogus=1'], 'unknown option --bogus\n'],
        // a short flag no command has is a wrong flag, not a file named "-Z"
        [['input.txt', '-Z'], 'unknown option -Z'],
        [['input.txt', valued], `${valued} needs`],
        [[valued, '--json', 'input.txt'], `${valued} needs`],
        [[`${sw}=yes`], `${sw} takes no value`],
      ];
      for (const [args, reason] of cases) {
        const io = fakeIO(dir);
        const code = await main([command, ...args], io);
        expectUsageError({ code, stdout: io.out, stderr: io.err }, command, reason);
      }
    },
  );

  it('meshdx gather: its usage, a wrong flag, a missing value, a missing -o, a bad --since', async () => {
    const [help, bogus] = await Promise.all([
      meshdx(['gather', '-o', 'x.tar.gz', '--help']),
      meshdx(['gather', '-o', 'x.tar.gz', '--bogus']),
    ]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: meshdx gather -o FILE /);
    expectUsageError(bogus, 'gather', 'unknown option --bogus');
    const cases: [string[], string][] = [
      [['-o', 'x.tar.gz', '--since'], '--since needs a value'],
      [['--since', '30m'], 'an output file is needed: -o FILE'],
      [['-o', 'x.tar.gz', '--since', '30'], '--since "30" is not a duration'],
      [
        ['-o', 'x.tar.gz', '--namespace', 'Shop'],
        '--namespace: namespace "Shop" is not a DNS label',
      ],
      [['-o', 'x.tar.gz', 'extra'], 'unexpected argument extra'],
      [['-o', 'no-such-dir/x.tar.gz'], 'the folder'],
      [['-o', '.'], 'is a folder'],
      [['-o', 'x.tar.gz', '--history', 'none.sqlite'], '--history none.sqlite does not exist'],
    ];
    for (const [args, reason] of cases) {
      const io = fakeIO(dir);
      const code = await main(['gather', ...args], io);
      expectUsageError({ code, stdout: io.out, stderr: io.err }, 'gather', reason);
    }
    // a cluster that cannot be reached: nothing written, the reason said in one line
    const kc = path.join(dir, 'unreachable-kubeconfig');
    fs.writeFileSync(
      kc,
      'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "http://127.0.0.1:9", insecure-skip-tls-verify: true}}]\nusers: [{name: u, user: {}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n',
    );
    const none = await meshdx(['gather', '-o', 'down.tar.gz', '--kubeconfig', kc]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(
      /^meshdx gather: nothing written: cannot reach the API server at 127\.0\.0\.1:9/m,
    );
    expect(none.stderr).not.toMatch(/\n\s+at /);
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('down.tar.gz'))).toEqual([]);
    const other = await meshdx([
      'gather',
      '-o',
      'down.tar.gz',
      '--kubeconfig',
      kc,
      '--context',
      'prod',
    ]);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(
      /^meshdx gather: nothing written: context "prod" is not in .*known contexts: x$/m,
    );
  }, 120_000);

  it('meshdx mcp: its usage, a wrong flag, a missing --url, a bad port, a token file over HTTP', async () => {
    const [help, bogus] = await Promise.all([
      meshdx(['mcp', '--url', 'http://127.0.0.1:3000', '--help']),
      meshdx(['mcp', '--url', 'http://127.0.0.1:3000', '--bogus']),
    ]);
    expect(help.code).toBe(0);
    expect(help.stderr).toBe('');
    expect(help.stdout).toMatch(/^usage: meshdx mcp --url URL /);
    expectUsageError(bogus, 'mcp', 'unknown option --bogus');
    fs.writeFileSync(path.join(dir, 'token'), 'abc\n');
    const cases: [string[], string][] = [
      [[], '--url is required'],
      [['--url'], '--url needs a value'],
      [['--url', 'ftp://x'], 'only http:// and https://'],
      [['--url', 'http://127.0.0.1:3000', '--listen', '0'], '--listen wants a port number'],
      [['--url', 'http://127.0.0.1:3000', '--host', '0.0.0.0'], '--host is for --listen'],
      [
        ['--url', 'http://127.0.0.1:3000', '--listen', '3600', '--token-file', 'token'],
        '--token-file is for stdio',
      ],
      [['--url', 'http://127.0.0.1:3000', '--token-file', 'none'], '--token-file none: ENOENT'],
      [['--url', 'http://127.0.0.1:3000', 'extra'], 'unexpected argument extra'],
    ];
    for (const [args, reason] of cases) {
      const io = fakeIO(dir);
      const code = await main(['mcp', ...args], io);
      expectUsageError({ code, stdout: io.out, stderr: io.err }, 'mcp', reason);
    }
  });

  it('reads what follows `--` as files, help included', async () => {
    const [r, f] = await Promise.all([
      meshdx(['timeline', '--', '-h']),
      meshdx(['findings', '--', '-Z']),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^meshdx timeline: cannot read .*-h: no such file/);
    expect(f.code).toBe(2);
    expect(f.stderr).toContain('-Z: no such file');
  });
});
