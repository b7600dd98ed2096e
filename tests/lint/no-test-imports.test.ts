import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
// @ts-expect-error: a plain ESM ESLint plugin without types
import { noTestImports } from '../../scripts/eslint/no-test-imports.mjs';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-test-imports-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function lint(name: string, text: string): string[] {
  const linter = new Linter({ cwd: dir });
  return linter
    .verify(
      text,
      [
        {
          files: ['**/*.ts'],
          languageOptions: { parser: tseslint.parser as Linter.Parser },
          plugins: { m: { rules: { 'no-test-imports': noTestImports } } },
          rules: { 'm/no-test-imports': 'error' },
        },
      ],
      path.join(dir, name),
    )
    .map((m) => m.message);
}

describe('meshdx-tests/no-test-imports', () => {
  it('reports test data and helpers reached by a relative path or the @/ alias', () => {
    expect(
      lint('lib/ledger/x.ts', "import { pods } from '../../tests/data/ledger/pods';\n"),
    ).toEqual([
      expect.stringMatching(/test-only module \.\.\/\.\.\/tests\/data\/ledger\/pods \(tests\/\)/),
    ]);
    expect(lint('server/a.ts', "export { fakeIO } from '@/test-support/cli-io';\n")).toEqual([
      expect.stringMatching(/test-support\//),
    ]);
    expect(lint('cli/a.ts', "const m = await import('../tests/data/utc-time');\n")).toHaveLength(1);
  });

  it('reports the test runner', () => {
    expect(lint('lib/a.ts', "import { expect } from 'vitest';\n")).toEqual([
      'product code imports the test tool vitest.',
    ]);
  });

  it('leaves product imports alone, also a folder whose name only starts like tests', () => {
    expect(
      lint(
        'lib/a.ts',
        "import { b } from './b';\nimport { c } from '@/lib/testsuite/c';\nimport { chromium } from '@playwright/test';\n",
      ),
    ).toEqual([]);
  });
});
