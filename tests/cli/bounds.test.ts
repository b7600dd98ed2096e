import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/cli-io';
import { CHILD_PROCESS_GUARD_MS } from '../../test-support/deadlines';

/**
 * The real command line, as a user runs it, on inputs built to break it: every one ends in
 * a message naming the file and a 2, quickly, with no Node stack trace. Limits are lowered
 * through the environment so that the inputs stay small.
 */
const root = path.resolve(import.meta.dirname, '..', '..');
const dir = tempDir('bounds');

function meshdx(
  args: string[],
  env: Record<string, string> = {},
  stdin = '',
): Promise<{ code: number; stdout: string; stderr: string; ms: number }> {
  const t0 = Date.now();
  // `sh -c '... | meshdx ...'`: a real pipe on stdin (a FIFO, as shells make them)
  const shell = args[0] === 'sh';
  return new Promise((resolve) => {
    const child = execFile(
      shell ? 'sh' : process.execPath,
      shell ? args.slice(1) : [path.join(root, 'bin', 'meshdx.mjs'), ...args],
      {
        cwd: dir,
        env: { ...process.env, ...env },
        maxBuffer: 16 << 20,
        timeout: CHILD_PROCESS_GUARD_MS,
      },
      (err, stdout, stderr) =>
        resolve({
          code: err ? Number(err.code ?? -1) : 0,
          stdout,
          stderr,
          ms: Date.now() - t0,
        }),
    );
    child.stdin?.end(stdin);
  });
}

function write(name: string, content: string | Buffer): string {
  fs.writeFileSync(path.join(dir, name), content);
  return name;
}

write(
  'history.json',
  '{"type":"ADDED","object":{"kind":"Pod","metadata":{"name":"a","namespace":"n","uid":"u"},"status":{"podIP":"10.0.0.1"}}}\n',
);

const STACK = /\n\s+at .+\(.*:\d+:\d+\)/;

describe('bounded inputs through the real command line', () => {
  it('deep JSON, oversized documents, a log without line breaks, an empty pipe', async () => {
    const deep = write('deep.json', `{"configs":${'['.repeat(300_000)}${']'.repeat(300_000)}}`);
    const pods = write(
      'pods.json',
      JSON.stringify({ kind: 'PodList', items: [], pad: 'x'.repeat(20_000) }),
    );
    const oneLine = write('oneline.log', Buffer.alloc(3 * 1024 * 1024, 0x41));
    const runs = await Promise.all([
      meshdx(['clusters', deep]),
      meshdx(['timeline', deep]),
      meshdx(['timeline', pods], { MESHDX_MAX_INPUT_BYTES: '10000' }),
      meshdx(['attribute', oneLine, '--history', 'history.json'], {
        MESHDX_MAX_LINE_BYTES: '4096',
      }),
      meshdx(['accesslog', oneLine], { MESHDX_MAX_LINE_BYTES: '4096' }),
      // a shell pipe with nothing on it, as `kubectl logs ... | meshdx accesslog /dev/stdin` gives
      meshdx(
        [
          'sh',
          '-c',
          `printf '' | "${process.execPath}" "${path.join(root, 'bin', 'meshdx.mjs')}" attribute /dev/stdin --history history.json`,
        ],
        { SHELL_PIPE: '1' },
      ),
    ]);
    const [clusters, timeline, big, attribute, accesslog, stdin] = runs;
    for (const r of runs) {
      expect(r?.code).toBe(2);
      expect(r?.stderr).not.toMatch(STACK);
      expect(r?.ms).toBeLessThan(30_000);
    }
    // the problem is placed where the nesting crossed the limit
    expect(clusters?.stderr).toMatch(
      /deep\.json: line 1, column \d+: nested deeper than 256 levels/,
    );
    expect(timeline?.stderr).toMatch(/deep\.json:1:\d+: nested deeper than 256 levels/);
    expect(big?.stderr).toMatch(/pods\.json is 19\.\d KiB, more than the 9\.8 KiB/);
    expect(attribute?.stderr).toMatch(
      /oneline\.log: no access-log record in 1 lines: 1 unreadable \(too-long\)/,
    );
    expect(accesslog?.stderr).toMatch(
      /oneline\.log: no access-log record in 1 line: 1 unreadable \(too-long\)/,
    );
    expect(stdin?.stderr).toMatch(/\/dev\/stdin: is empty/);
  });

  it('/dev/stdin that is a socket (a spawning program’s pipe) is read like a shell pipe', async () => {
    const line =
      '[2024-03-01T10:00:00.000Z] "GET / HTTP/1.1" 503 UC - - "-" 0 0 1 - "-" "curl" "id" "h" "10.0.0.1:80"\n';
    const r = await meshdx(['accesslog', '/dev/stdin', '--json'], {}, line.repeat(3));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ lines: 3, parsed: 3, byFlag: { UC: 3 } });
    const a = await meshdx(
      ['attribute', '/dev/stdin', '--history', 'history.json', '--json'],
      {},
      line,
    );
    expect(a.code).toBe(0);
    expect(JSON.parse(a.stdout)).toMatchObject({ requests: 1 });
  });
});
