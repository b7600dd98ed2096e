import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ESM module without types
import { sourceFiles } from '../../scripts/eslint/import-graph.mjs';

/**
 * A runtime keeps each screen's state under its key's name (server/runtime/runtime.ts), and
 * `rt.screen(key)` trusts that what is kept under a name was made by that name's key: so each
 * name is defined by one `defineScreen` call, with a literal name, in the whole product.
 */

const root = path.resolve(import.meta.dirname, '../..');

/** Each `defineScreen(...)` call of a source: its name (null when not a string literal) and line. */
function screenNames(file: string, text: string): { name: string | null; at: string }[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: { name: string | null; at: string }[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'defineScreen'
    ) {
      const arg = node.arguments[0];
      const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
      out.push({
        name: arg && ts.isStringLiteralLike(arg) ? arg.text : null,
        at: `${path.relative(root, file)}:${line}`,
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

describe('runtime screen keys', () => {
  it('reads the names of a source and marks one that is not a literal', () => {
    const text =
      "const a = defineScreen('a', () => 1);\nconst b = defineScreen(name, () => 2);\nscreen('c');\n";
    expect(screenNames(path.join(root, 'x.ts'), text)).toEqual([
      { name: 'a', at: 'x.ts:1' },
      { name: null, at: 'x.ts:2' },
    ]);
  });

  it('defines each name once, as a literal, in lib/, server/, app/, components/ and cli/', () => {
    const calls = ['lib', 'server', 'app', 'components', 'cli']
      .flatMap((d) => sourceFiles(path.join(root, d)) as string[])
      .filter((f) => !/\.test\.tsx?$/.test(f))
      .flatMap((f) => screenNames(f, fs.readFileSync(f, 'utf8')));
    const keys = calls;
    expect(keys.filter((c) => c.name === null).map((c) => c.at)).toEqual([]);
    const byName = new Map<string, string[]>();
    for (const c of keys) byName.set(c.name!, [...(byName.get(c.name!) ?? []), c.at]);
    const twice = [...byName].filter(([, at]) => at.length > 1);
    expect(twice).toEqual([]);
    // the screens the runtime holds today (a key gone or added is a choice, not an accident)
    expect([...byName.keys()].sort()).toEqual([
      'cluster-info',
      'findings',
      'findings-follow',
      'findings-logs',
      'findings-run',
      'incident-layers',
      'incidents-follows',
      'incidents-log-access',
      'incidents-signals',
      'last-reads',
      'proxies-fleet',
      'scoping',
      'snapshot-client-namespaces',
      'snapshots',
      'timelines',
    ]);
  });
});
