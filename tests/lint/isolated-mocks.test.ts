import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ISOLATED_TEST_FILES } from '../../vitest.config';

const root = path.resolve(import.meta.dirname, '..', '..');

/** The integration test files git knows (lib's run in a shared graph of their own). */
function integrationFiles(): string[] {
  return execFileSync('git', ['ls-files', 'server', 'cli', 'tests'], {
    cwd: root,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((f) => f.endsWith('.test.ts'));
}

/** Calls that replace a module for the rest of the process. */
const MOCKS = /\bvi\.(?:mock|doMock)\(/;

describe('integration files that replace modules run in a process of their own', () => {
  it('lists every file that calls vi.mock or vi.doMock, and only those', () => {
    const mocking = integrationFiles().filter((f) =>
      MOCKS.test(fs.readFileSync(path.join(root, f), 'utf8')),
    );
    expect(mocking.length).toBeGreaterThan(0);
    expect([...ISOLATED_TEST_FILES].sort()).toEqual(mocking.sort());
  });

  it('would catch a new mocking file', () => {
    // built from parts, so this file is not itself a file that mocks
    const vi = 'vi';
    expect(MOCKS.test(`${vi}.mock('next/headers', () => ({}))`)).toBe(true);
    expect(MOCKS.test(`${vi}.doMock("x")`)).toBe(true);
    expect(MOCKS.test('vi.useFakeTimers()')).toBe(false);
  });
});
