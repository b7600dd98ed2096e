import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * The product's programs: lib/, server/, cli/, components/, app/, tests excluded. server/sim is
 * left out: it is a program of its own that keeps its own model of Istio (its servicesOfPod,
 * targetPortOf, compareVersions... are written apart from the product's on purpose, so that a
 * test comparing the two can fail) and may not import the product's analysis anyway.
 */
const FOLDERS = ['lib', 'server', 'cli', 'components', 'app'];
const LEFT_OUT = ['server/sim'];

/**
 * Names a module must export under that name because something reads it by name: Next's route
 * handlers and page functions in app/, and `run`, what cli/main.ts loads a command module by
 * (its CommandModule).
 */
const REQUIRED_NAMES: readonly { folder: string; names: ReadonlySet<string> }[] = [
  {
    folder: 'app',
    names: new Set([
      'GET',
      'POST',
      'PUT',
      'PATCH',
      'DELETE',
      'HEAD',
      'OPTIONS',
      'generateMetadata',
      'generateStaticParams',
      'generateViewport',
      'generateImageMetadata',
      'generateSitemaps',
    ]),
  },
  { folder: 'cli/commands', names: new Set(['run']) },
];

function within(file: string, folder: string): boolean {
  return file === folder || file.startsWith(folder + '/');
}

/** Every TypeScript source of the product's programs, tests excluded, relative to the root. */
function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const rel = path.posix.join(dir, entry.name);
    if (LEFT_OUT.some((f) => within(rel, f))) continue;
    if (entry.isDirectory()) out.push(...sources(rel));
    else if (/\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) out.push(rel);
  }
  return out;
}

function exported(node: ts.Node): boolean {
  return (
    ts.canHaveModifiers(node) &&
    (ts.getCombinedModifierFlags(node as ts.Declaration) & ts.ModifierFlags.Export) !== 0
  );
}

function isDefault(node: ts.Node): boolean {
  return (
    ts.canHaveModifiers(node) &&
    (ts.getCombinedModifierFlags(node as ts.Declaration) & ts.ModifierFlags.Default) !== 0
  );
}

function isFunctionValue(e: ts.Expression | undefined): boolean {
  if (e === undefined) return false;
  if (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e))
    return isFunctionValue(e.expression);
  return ts.isArrowFunction(e) || ts.isFunctionExpression(e);
}

/**
 * The names of the functions a source exports, declared there: `export function f`,
 * `export const f = () => ...` (or a function expression), or `export { f }` / `export { g as f }`
 * of a function declared in the file. Default exports (named `default`) and re-exports from
 * another module (a function declared elsewhere) do not count; overloads count once.
 */
export function exportedFunctionNames(fileName: string, text: string): string[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const local = new Set<string>();
  const names = new Set<string>();
  const declare = (name: string, node: ts.Node) => {
    if (exported(node) && !isDefault(node)) names.add(name);
    else if (!exported(node)) local.add(name);
  };
  for (const s of file.statements) {
    if (ts.isFunctionDeclaration(s) && s.name) declare(s.name.text, s);
    if (ts.isVariableStatement(s)) {
      for (const d of s.declarationList.declarations) {
        if (ts.isIdentifier(d.name) && isFunctionValue(d.initializer)) declare(d.name.text, s);
      }
    }
  }
  for (const s of file.statements) {
    if (!ts.isExportDeclaration(s) || s.moduleSpecifier) continue;
    const clause = s.exportClause;
    if (!clause || !ts.isNamedExports(clause)) continue;
    for (const spec of clause.elements) {
      const declared = (spec.propertyName ?? spec.name).getText(file);
      const as = spec.name.getText(file);
      if (local.has(declared) && as !== 'default') names.add(as);
    }
  }
  return [...names];
}

function required(file: string, name: string): boolean {
  return REQUIRED_NAMES.some((r) => within(file, r.folder) && r.names.has(name));
}

/** Names exported as a function by more than one source, with the sources that export each. */
export function duplicateFunctions(files: Record<string, string>): Record<string, string[]> {
  const where = new Map<string, string[]>();
  for (const [file, text] of Object.entries(files)) {
    for (const name of exportedFunctionNames(file, text)) {
      if (required(file, name)) continue;
      where.set(name, [...(where.get(name) ?? []), file]);
    }
  }
  return Object.fromEntries(
    [...where].filter(([, at]) => at.length > 1).sort(([a], [b]) => a.localeCompare(b)),
  );
}

describe('exported function names', () => {
  it('finds declared function exports of every form, and leaves the rest out', () => {
    const text = [
      'export function a(): void {}',
      'export async function b(): Promise<void> {}',
      'export const c = () => 1;',
      'export const d = async function () {};',
      'export const e = ((x: number) => x) as (x: number) => number;',
      'export function f(x: string): string;',
      'export function f(x: number): number;',
      'export function f(x: unknown) { return x; }',
      'function g() {}',
      'const h = () => 2;',
      'export { g, h as i };',
      'export default function Page() {}',
      'function j() {}',
      'export { j as default };',
      "export { k } from './k';",
      'export const L = 1;',
      'export const m = makeHandler();',
      'export class N {}',
      'export interface O {}',
    ].join('\n');
    expect(exportedFunctionNames('x.ts', text).sort()).toEqual(
      ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'i'].sort(),
    );
  });

  it('reports a name two sources export, and not the names a framework or loader reads', () => {
    expect(
      duplicateFunctions({
        'lib/a.ts': 'export function parse(x: string) { return x; }',
        'lib/b/c.ts': 'const parse = (y: string) => y;\nexport { parse };',
        'lib/d.ts': "export { parse } from './a';",
        'app/api/x/route.ts': 'export async function GET() {}',
        'app/api/y/route.ts': 'export const GET = async () => {};',
        'cli/commands/one.ts': 'export const run = () => 0;',
        'cli/commands/two.ts': 'export const run = () => 0;',
        'lib/e.ts': 'export function run() {}',
        'lib/f.ts': 'export function GET() {}',
        'lib/g.ts': 'export function GET() {}',
      }),
    ).toEqual({ parse: ['lib/a.ts', 'lib/b/c.ts'], GET: ['lib/f.ts', 'lib/g.ts'] });
  });

  it('no two sources of the product export a function of the same name', () => {
    const files = Object.fromEntries(
      FOLDERS.flatMap(sources).map((f) => [f, fs.readFileSync(path.join(root, f), 'utf8')]),
    );
    expect(Object.keys(files).length).toBeGreaterThan(100);
    expect(Object.keys(files).some((f) => within(f, 'server/sim'))).toBe(false);
    expect(duplicateFunctions(files)).toEqual({});
  });
});
