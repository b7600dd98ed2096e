import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main';
import { fakeIO, tempDir } from '../../test-support/cli-io';
import { packTarGz } from '../data/archive/pack';

const dir = tempDir('open');

async function open(args: string[]) {
  const io = fakeIO(dir);
  const code = await main(['open', ...args], io);
  return { code, out: io.out, err: io.err };
}

describe('meshdx open: wrong uses and hostile archives, named before anything is served', () => {
  it('needs an archive, one that exists, and a port that is one', async () => {
    fs.writeFileSync(path.join(dir, 'a.tgz'), 'x');
    const cases: [string[], string][] = [
      [[], 'an ARCHIVE (a bug-report .tar.gz or its folder) is needed'],
      [['nope.tar.gz'], 'nope.tar.gz: no such file or folder'],
      [['a.tgz', '--port', '70000'], '--port wants a port number from 1 to 65535, got "70000"'],
      [['a.tgz', '--port', 'http'], '--port wants a port number from 1 to 65535, got "http"'],
    ];
    for (const [args, reason] of cases) {
      const r = await open(args);
      expect(r.code, r.err).toBe(2);
      expect(r.err.split('\n')[0]).toBe(`meshdx open: ${reason}`);
      expect(r.err).toContain('usage: meshdx open ARCHIVE|DIR...');
    }
  });

  it('refuses a file that is not gzip and an archive bomb with the reason, serving nothing', async () => {
    const notGzip = path.join(dir, 'report.txt');
    fs.writeFileSync(notGzip, 'NAME READY STATUS\n');
    const r = await open([notGzip, '--data-dir', path.join(dir, 'data')]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^meshdx open: not a gzip file \(it starts with "NAME REA/);
    const bomb = path.join(dir, 'bomb.tar.gz');
    fs.writeFileSync(
      bomb,
      await packTarGz([{ name: 'bug-report/x', body: Buffer.alloc(80 * 1024 * 1024) }]),
    );
    const b = await open([bomb, '--data-dir', path.join(dir, 'data')]);
    expect(b.code).toBe(1);
    expect(b.err).toMatch(/refused as a gzip bomb/);
    // nothing was left behind but the data folder it was given
    expect(fs.readdirSync(path.join(dir, 'data'))).toEqual([]);
  }, 120_000);
});
