import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHILD_PROCESS_GUARD_MS } from '../../test-support/deadlines';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * Runs the real Playwright CLI on three tiny projects chained as `chain` says (tests that only
 * wait, no browser), with meshdx's all-ran reporter.
 */
function runChain(chain: 'teardowns' | 'dependencies'): { code: number | null; out: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-all-ran-'));
  try {
    fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
    fs.mkdirSync(path.join(dir, 't'));
    for (const n of ['v1', 'c1', 'l1'])
      fs.writeFileSync(
        path.join(dir, 't', `${n}.spec.ts`),
        `import { test } from '@playwright/test';\ntest('${n}', async () => {});\n`,
      );
    const projects =
      chain === 'teardowns'
        ? `{ name: 'views', testMatch: 'v*.spec.ts', teardown: 'clock' },
           { name: 'clock', testMatch: 'c*.spec.ts', teardown: 'last' },
           { name: 'last', testMatch: 'l*.spec.ts' },`
        : `{ name: 'views', testMatch: 'v*.spec.ts' },
           { name: 'clock', testMatch: 'c*.spec.ts', dependencies: ['views'] },
           { name: 'last', testMatch: 'l*.spec.ts', dependencies: ['clock'] },`;
    fs.writeFileSync(
      path.join(dir, 'playwright.config.ts'),
      `import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: 't',
  reporter: [['list'], [${JSON.stringify(path.join(root, 'test-support', 'playwright-all-ran.ts'))}]],
  projects: [${projects}],
});
`,
    );
    const r = spawnSync(path.join(root, 'node_modules', '.bin', 'playwright'), ['test'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, CI: '1', FORCE_COLOR: '0' },
      timeout: CHILD_PROCESS_GUARD_MS,
    });
    return { code: r.status, out: `${r.stdout}${r.stderr}` };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('the all-ran reporter', () => {
  it('fails a run whose selected tests never ran, naming them (Playwright alone exits 0)', () => {
    const r = runChain('teardowns');
    expect(r.out).toContain('2 did not run');
    expect(r.out).toContain('2 selected test(s) never ran');
    expect(r.out).toContain('clock › c1.spec.ts › c1');
    expect(r.code).toBe(1);
  });

  it('passes a run in which every selected test ran', () => {
    const r = runChain('dependencies');
    expect(r.out, r.out).toContain('3 passed');
    expect(r.out).not.toContain('never ran');
    expect(r.code).toBe(0);
  });
});
