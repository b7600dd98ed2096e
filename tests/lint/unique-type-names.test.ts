import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const skipped = new Set(['node_modules', '.next', 'test-results', 'playwright-report', 'coverage']);

/** Every TypeScript source of the project, relative to its root. */
function sources(dir = root): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || skipped.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sources(full));
    else if (/\.(ts|tsx|mts|cts)$/.test(entry.name)) out.push(path.relative(root, full));
  }
  return out;
}

type TypeDeclaration =
  ts.InterfaceDeclaration | ts.TypeAliasDeclaration | ts.ClassDeclaration | ts.EnumDeclaration;

function isTypeDeclaration(node: ts.Node): node is TypeDeclaration {
  return (
    ts.isInterfaceDeclaration(node) ||
    ts.isTypeAliasDeclaration(node) ||
    ts.isClassDeclaration(node) ||
    ts.isEnumDeclaration(node)
  );
}

function exported(node: TypeDeclaration): boolean {
  return (ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Export) !== 0;
}

/**
 * The names of the types (interfaces, type aliases, classes, enums) a source exports, declared
 * there: `export interface X`, or `export { X }` / `export { Y as X }` of a type declared in the
 * file. Re-exports from another module name a type declared elsewhere, so they do not count.
 */
export function exportedTypeNames(fileName: string, text: string): string[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const local = new Set<string>();
  const names: string[] = [];
  for (const statement of file.statements) {
    if (!isTypeDeclaration(statement) || !statement.name) continue;
    if (exported(statement)) names.push(statement.name.text);
    else local.add(statement.name.text);
  }
  for (const statement of file.statements) {
    if (!ts.isExportDeclaration(statement) || statement.moduleSpecifier) continue;
    const clause = statement.exportClause;
    if (!clause || !ts.isNamedExports(clause)) continue;
    for (const spec of clause.elements) {
      const declared = (spec.propertyName ?? spec.name).getText(file);
      if (local.has(declared)) names.push(spec.name.getText(file));
    }
  }
  return names;
}

/** Names exported as a type by more than one source, with the sources that export each. */
export function duplicates(files: Record<string, string>): Record<string, string[]> {
  const where = new Map<string, string[]>();
  for (const [name, text] of Object.entries(files)) {
    for (const type of exportedTypeNames(name, text)) {
      where.set(type, [...(where.get(type) ?? []), name]);
    }
  }
  return Object.fromEntries(
    [...where].filter(([, at]) => at.length > 1).sort(([a], [b]) => a.localeCompare(b)),
  );
}

describe('exported type names', () => {
  it('finds declared exports of every kind, and leaves re-exports and local types out', () => {
    const text = [
      'export interface A {}',
      'export type B = 1;',
      'export class C {}',
      'export enum D { x }',
      'export declare class E {}',
      'interface F {}',
      'type G = 2;',
      'export { F, G as H };',
      "export { I } from './i';",
      "export type { J } from './j';",
      'const k = 1;',
      'export { k };',
      'export const L = 1;',
      'export function m(): void {}',
    ].join('\n');
    expect(exportedTypeNames('x.ts', text)).toEqual(['A', 'B', 'C', 'D', 'E', 'F', 'H']);
  });

  it('reports a name two sources export, with both sources', () => {
    expect(
      duplicates({
        'a.ts': 'export interface Row { a: 1 }\nexport type Only = 1;',
        'b/c.tsx': 'type Row = 2;\nexport { Row };',
        'd.ts': "export type { Row } from './a';",
      }),
    ).toEqual({ Row: ['a.ts', 'b/c.tsx'] });
  });

  it('no two sources of the project export a type of the same name', () => {
    const files = Object.fromEntries(
      sources().map((f) => [f, fs.readFileSync(path.join(root, f), 'utf8')]),
    );
    expect(Object.keys(files).length).toBeGreaterThan(100);
    expect(duplicates(files)).toEqual({});
  });
});
