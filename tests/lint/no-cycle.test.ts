import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
// @ts-expect-error: a plain ESM ESLint plugin without types
import meshdx from '../../scripts/eslint/no-cycle.mjs';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-cycle-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
}

function lint(name: string): string[] {
  const linter = new Linter({ cwd: dir });
  const file = path.join(dir, name);
  return linter
    .verify(
      fs.readFileSync(file, 'utf8'),
      [
        {
          files: ['**/*.ts'],
          languageOptions: { parser: tseslint.parser as Linter.Parser },
          plugins: { meshdx },
          rules: { 'meshdx/no-cycle': 'error' },
        },
      ],
      file,
    )
    .map((m) => m.message);
}

describe('meshdx/no-cycle', () => {
  it('reports a cycle through value imports, spelled out, also through the @/ alias', () => {
    write({
      'x/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
      'x/b.ts': "import { c } from '@/x/c';\nexport const b = () => c;\n",
      'x/c.ts': "export { a as c } from './a';\n",
    });
    expect(lint('x/a.ts')).toEqual(['import cycle: x/a.ts -> x/b.ts -> x/c.ts -> x/a.ts']);
  });

  it('leaves type-only imports and acyclic graphs alone', () => {
    write({
      'y/a.ts':
        "import type { B } from './b';\nimport { c } from './c';\nexport type A = B | 1;\nexport const a = c;\n",
      'y/b.ts': "import { type A } from './a';\nexport type B = A[];\n",
      'y/c.ts': 'export const c = 1;\n',
    });
    expect(lint('y/a.ts')).toEqual([]);
    expect(lint('y/b.ts')).toEqual([]);
  });
});
