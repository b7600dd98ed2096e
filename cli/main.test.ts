import { describe, expect, it } from 'vitest';
import { main } from './main';
import { fakeIO, tempDir } from '../test-support/cli-io';

const dir = tempDir('main');
const COMMANDS = ['timeline', 'clusters', 'accesslog', 'findings', 'attribute', 'report'];

describe('meshdx COMMAND --help', () => {
  it.each(COMMANDS)('%s prints its own usage on stdout and exits 0', async (name) => {
    for (const flag of ['--help', '-h']) {
      const io = fakeIO(dir);
      expect(await main([name, flag], io)).toBe(0);
      expect(io.err).toBe('');
      expect(io.out).toMatch(new RegExp(`^usage: meshdx ${name} `));
    }
  });

  it('answers help among other arguments instead of reading "-h" as a file', async () => {
    const io = fakeIO(dir);
    expect(await main(['clusters', '-h'], io)).toBe(0);
    expect(io.out).toContain('--endpoints');
    const io2 = fakeIO(dir);
    expect(
      await main(['attribute', 'missing.log', '--history', 'missing.json', '--help'], io2),
    ).toBe(0);
    expect(io2.err).toBe('');
    expect(io2.out).toContain('--gap-minutes');
  });

  it('names the per-command help in the overall usage, and refuses an unknown command', async () => {
    const io = fakeIO(dir);
    expect(await main(['--help'], io)).toBe(0);
    expect(io.out).toContain('meshdx COMMAND --help');
    const bad = fakeIO(dir);
    expect(await main(['clusterz', '--help'], bad)).toBe(2);
    expect(bad.err).toContain('unknown command "clusterz"');
  });

  it('still tells a wrong use apart from a request for help', async () => {
    const io = fakeIO(dir);
    expect(await main(['timeline', '--nope'], io)).toBe(2);
    expect(io.err).toContain('unknown option --nope');
    expect(io.err).toContain('usage: meshdx timeline');
  });
});
