import { describe, expect, it } from 'vitest';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
// @ts-expect-error: a plain ESM ESLint plugin without types
import { noModuleState } from '../../scripts/eslint/no-module-state.mjs';

function lint(text: string): string[] {
  const linter = new Linter();
  return linter
    .verify(
      text,
      [
        {
          files: ['**/*.ts'],
          languageOptions: { parser: tseslint.parser as Linter.Parser },
          plugins: { m: { rules: { 'no-module-state': noModuleState } } },
          rules: { 'm/no-module-state': 'error' },
        },
      ],
      'lib/x.ts',
    )
    .map((m) => m.message);
}

describe('meshdx-state/no-module-state', () => {
  it('reports module-level let and var, exported or not', () => {
    const out = lint('let open = 0;\nexport let last: string | null = null;\nvar n = 1;\n');
    expect(out).toHaveLength(3);
    expect(out[0]).toMatch(
      /module-level `let open` is state without an owner; keep it in its owner/,
    );
    expect(out[2]).toMatch(/`var n`/);
  });

  it('reports a module-level WeakMap, Map, Set or class instance', () => {
    const out = lint(
      [
        'const cache = new WeakMap<object, number>();',
        'const byName = new Map<string, number>();',
        'export const seen = new Set();',
        'class Top { n = 0 }',
        'const top = new Top();',
        'const pods = new Array<string>(10);',
      ].join('\n'),
    );
    expect(out).toHaveLength(5);
    expect(out[1]).toMatch(/`const byName: ReadonlyMap<\.\.\.> = new Map\(\.\.\.\)`/);
    expect(out[3]).toMatch(/`new Top` \(top\)/);
  });

  it('allows a read-only lookup table typed so, and objects without state', () => {
    expect(
      lint(
        [
          "const SAFE: ReadonlySet<string> = new Set(['GET', 'HEAD']);",
          "const BY_CODE: ReadonlyMap<string, number> = new Map([['a', 1]]);",
          "const FMT = new Intl.NumberFormat('en-US');",
          "const dec = new TextDecoder('utf-8');",
          'const RANK: Record<string, number> = { SYNCED: 0 };',
          'export const rank = (s: string) => RANK[s] ?? FMT.format(SAFE.size + BY_CODE.size);',
        ].join('\n'),
      ),
    ).toEqual([]);
  });

  it('reports a typed read-only table changed through a cast, and any module value changed at run time', () => {
    const out = lint(
      [
        "const SAFE: ReadonlySet<string> = new Set(['GET']);",
        'const memo: Record<string, number> = {};',
        'const list: string[] = [];',
        'const seen = { depth: 0 };',
        'export function f(k: string) {',
        '  (SAFE as Set<string>).add(k);',
        '  memo[k] = 1;',
        '  list.push(k);',
        '  seen.depth++;',
        '  delete memo[k];',
        '  Object.assign(seen, { depth: 2 });',
        '}',
      ].join('\n'),
    );
    expect(
      out.map((m) =>
        /^`(\w+)` is a module-level value changed at run time \((.+?)\);/.exec(m)?.slice(1),
      ),
    ).toEqual([
      ['SAFE', '.add()'],
      ['memo', 'an assignment'],
      ['list', '.push()'],
      ['seen', '++'],
      ['memo', 'delete'],
      ['seen', 'Object.assign'],
    ]);
  });

  it('allows a table filled at load, at the top level of the module', () => {
    expect(
      lint(
        [
          'const T = new Uint8Array(256) as Readonly<Uint8Array>;',
          'const BYTE: number[] = [];',
          'for (let c = 0; c < 256; c++) BYTE[c] = c < 0x20 ? 0 : 1;',
          'export const ok = (c: number) => BYTE[c] === 1;',
        ].join('\n'),
      ),
    ).toEqual([
      'module-level `new Uint8Array` (T) is state without an owner; keep it in its owner: a screen slot of the ClusterRuntime (runtime.screen), a slot of server/runtime/process-state.ts, or an object the caller makes and passes.',
    ]);
  });

  it('reports a changed import, static fields and writes on the global object', () => {
    const out = lint(
      [
        "import { table } from './table';",
        'export class Cache {',
        '  static hits = 0;',
        '  static readonly byKey = new Map<string, number>();',
        '  static readonly LIMIT = 10;',
        '}',
        'export function g() {',
        "  table.set('a', 1);",
        '  globalThis.__x = 1;',
        '}',
      ].join('\n'),
    );
    expect(out).toEqual([
      expect.stringMatching(/class static field `hits` is not readonly/),
      expect.stringMatching(/class static field `byKey` is a mutable `Map`/),
      expect.stringMatching(/`table` is a module-level value changed at run time \(\.set\(\)\)/),
      expect.stringMatching(/writing `globalThis.__x` on the global object/),
    ]);
  });

  it('leaves state inside functions and instances alone', () => {
    expect(
      lint(
        [
          'export function reader() {',
          '  let plain = true;',
          '  const seen = new Map<string, number>();',
          '  return (k: string) => { plain = !plain; seen.set(k, 1); return plain; };',
          '}',
          'export class Texts { private readonly recent = new Array<string>(16); put(i: number, s: string) { this.recent[i] = s; } }',
        ].join('\n'),
      ),
    ).toEqual([]);
  });
});
