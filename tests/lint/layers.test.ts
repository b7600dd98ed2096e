import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
// @ts-expect-error: a plain ESM ESLint plugin without types
import layers, { cyclesOf } from '../../scripts/eslint/layers.mjs';
// @ts-expect-error: a plain ESM module without types
import { sourceFiles } from '../../scripts/eslint/import-graph.mjs';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-layers-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Each case lints its own project (the rule reads a project's folder graph once). */
function project(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(dir, 'p-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  return root;
}

function lint(root: string, name: string, rule: string): string[] {
  const linter = new Linter({ cwd: root });
  const file = path.join(root, name);
  return linter
    .verify(
      fs.readFileSync(file, 'utf8'),
      [
        {
          files: ['**/*.ts'],
          languageOptions: { parser: tseslint.parser as Linter.Parser },
          plugins: { layers },
          rules: { [`layers/${rule}`]: 'error' },
        },
      ],
      file,
    )
    .map((m) => `${m.line}: ${m.message}`);
}

describe('layers/no-folder-cycle', () => {
  it('reports two folders of server/ that import each other, at the import, naming both ends', () => {
    const root = project({
      'server/auth/request.ts':
        "import { slot } from '../runtime/state';\nexport const id = slot;\n",
      'server/runtime/state.ts': 'export const slot = 1;\n',
      'server/runtime/registry.ts':
        "import { id } from '@/server/auth/request';\nexport const r = id;\n",
    });
    expect(lint(root, 'server/auth/request.ts', 'no-folder-cycle')).toEqual([
      '1: folder cycle: server/auth -> server/runtime -> server/auth (server/runtime/registry.ts:1 imports server/auth/request.ts)',
    ]);
    expect(lint(root, 'server/runtime/registry.ts', 'no-folder-cycle')).toEqual([
      '1: folder cycle: server/runtime -> server/auth -> server/runtime (server/auth/request.ts:1 imports server/runtime/state.ts)',
    ]);
    // the file not on the cycle's imports is not reported
    expect(lint(root, 'server/runtime/state.ts', 'no-folder-cycle')).toEqual([]);
  });

  it('finds a longer cycle, and counts the files directly in server/ as one node, server/*', () => {
    const root = project({
      'server/http.ts': "import { a } from './auth/a';\nexport const h = a;\n",
      'server/auth/a.ts': "import { k } from '../kube/k';\nexport const a = k;\n",
      'server/kube/k.ts': "import { h } from '../http';\nexport const k = () => h;\n",
    });
    expect(lint(root, 'server/http.ts', 'no-folder-cycle')).toEqual([
      '1: folder cycle: server/* -> server/auth -> server/kube -> server/* (server/auth/a.ts:1 imports server/kube/k.ts; server/kube/k.ts:1 imports server/http.ts)',
    ]);
  });

  it('reports a cycle between nested sibling folders, inside their folder only', () => {
    const root = project({
      'server/sim/api/control.ts': "import { f } from '../mesh/fleet';\nexport const c = f;\n",
      'server/sim/mesh/fleet.ts': 'export const f = 1;\n',
      'server/sim/mesh/deep/x.ts': "import { c } from '../../api/control';\nexport const x = c;\n",
    });
    expect(lint(root, 'server/sim/api/control.ts', 'no-folder-cycle')).toEqual([
      '1: folder cycle: server/sim/api -> server/sim/mesh -> server/sim/api (server/sim/mesh/deep/x.ts:1 imports server/sim/api/control.ts)',
    ]);
    // a file deeper in the folder is part of its node
    expect(lint(root, 'server/sim/mesh/deep/x.ts', 'no-folder-cycle')).toEqual([
      '1: folder cycle: server/sim/mesh -> server/sim/api -> server/sim/mesh (server/sim/api/control.ts:1 imports server/sim/mesh/fleet.ts)',
    ]);
    expect(lint(root, 'server/sim/mesh/fleet.ts', 'no-folder-cycle')).toEqual([]);
  });

  it("reports a folder and its parent's own files reaching each other, as folder/*", () => {
    const root = project({
      'server/sim/index.ts': "import { s } from './api/server';\nexport const start = s;\n",
      'server/sim/kubeconfig.ts': 'export const TOKEN = 1;\n',
      'server/sim/api/server.ts': "import { a } from './auth';\nexport const s = a;\n",
      'server/sim/api/auth.ts': "import { TOKEN } from '../kubeconfig';\nexport const a = TOKEN;\n",
    });
    expect(lint(root, 'server/sim/index.ts', 'no-folder-cycle')).toEqual([
      '1: folder cycle: server/sim/* -> server/sim/api -> server/sim/* (server/sim/api/auth.ts:1 imports server/sim/kubeconfig.ts)',
    ]);
    expect(lint(root, 'server/sim/api/auth.ts', 'no-folder-cycle')).toEqual([
      '1: folder cycle: server/sim/api -> server/sim/* -> server/sim/api (server/sim/index.ts:1 imports server/sim/api/server.ts)',
    ]);
    // inside one folder, files import each other freely
    expect(lint(root, 'server/sim/api/server.ts', 'no-folder-cycle')).toEqual([]);
  });

  it('counts a cycle that leaves a folder in the folder above, not in the nested one', () => {
    const root = project({
      'server/sim/api/a.ts': "import { k } from '../../kube/k';\nexport const a = k;\n",
      'server/kube/k.ts': "import { m } from '../sim/mesh/m';\nexport const k = m;\n",
      'server/sim/mesh/m.ts': "import { a } from '../api/a';\nexport const m = () => a;\n",
    });
    expect(lint(root, 'server/sim/mesh/m.ts', 'no-folder-cycle')).toEqual([]);
    expect(lint(root, 'server/sim/api/a.ts', 'no-folder-cycle')).toEqual([
      '1: folder cycle: server/sim -> server/kube -> server/sim (server/kube/k.ts:1 imports server/sim/mesh/m.ts)',
    ]);
  });

  it('leaves one-way folders at every depth, type-only imports back and tests alone', () => {
    const root = project({
      'server/runtime/registry.ts':
        "import type { Identity } from '../auth/identity';\nimport { x } from './deep/x';\nexport const r = (i: Identity) => [i, x];\n",
      'server/runtime/deep/x.ts':
        "import type { R } from '../registry';\nimport { y } from './y/y';\nexport const x = (r: R) => [r, y];\n",
      'server/runtime/deep/y/y.ts': 'export const y = 1;\n',
      'server/runtime/deep/z/z.ts': "import { y } from '../y/y';\nexport const z = y;\n",
      'server/runtime/deep/z/z.test.ts': "import { x } from '../x';\nexport const t = x;\n",
      'server/auth/identity.ts':
        "import { r } from '../runtime/registry';\nexport type Identity = string;\nexport const i = r;\n",
      'server/auth/identity.test.ts':
        "import { r } from '../runtime/registry';\nexport const t = r;\n",
      'server/runtime/registry.test.ts':
        "import { i } from '../auth/identity';\nexport const t = i;\n",
    });
    for (const f of [
      'server/runtime/registry.ts',
      'server/runtime/deep/x.ts',
      'server/runtime/deep/z/z.ts',
      'server/auth/identity.ts',
    ])
      expect(lint(root, f, 'no-folder-cycle')).toEqual([]);
  });

  it('finds no folder cycle in the project, at any depth', () => {
    const repo = fileURLToPath(new URL('../..', import.meta.url));
    const offenders = (sourceFiles(path.join(repo, 'server')) as string[]).flatMap((f) =>
      (cyclesOf(f, 'server', repo) as { line: number; cycle: string }[]).map(
        (c) => `${path.relative(repo, f)}:${c.line}: ${c.cycle}`,
      ),
    );
    expect(offenders).toEqual([]);
  });
});

describe('layers/lib-imports-lib', () => {
  it('refuses any import out of lib/, types included, and allows lib/ and packages', () => {
    const root = project({
      'lib/a/x.ts':
        "import { z } from 'zod';\nimport { y } from '../b/y';\nimport type { S } from '../../server/s';\nimport { t } from '@/test-support/t';\nexport const x = [z, y, t] as unknown as S;\n",
      'lib/b/y.ts': 'export const y = 1;\n',
      'server/s.ts': 'export type S = number;\n',
      'test-support/t.ts': 'export const t = 1;\n',
    });
    expect(lint(root, 'lib/a/x.ts', 'lib-imports-lib')).toEqual([
      '3: lib/ is the bottom layer: lib/a/x.ts must not import server/s.ts (../../server/s)',
      '4: lib/ is the bottom layer: lib/a/x.ts must not import test-support/t.ts (@/test-support/t)',
    ]);
    expect(lint(root, 'lib/b/y.ts', 'lib-imports-lib')).toEqual([]);
  });
});
