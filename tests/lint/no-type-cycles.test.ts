import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ESM module without types
import { importsOf, sourceFiles } from '../../scripts/eslint/import-graph.mjs';

/**
 * meshdx/no-cycle reads value imports only (a type-only import vanishes at run time). This test
 * reads every import, `import type` and `export type ... from` included, of lib/, server/, app/,
 * components/ and cli/: a module that reaches itself again through any import is one concept
 * split over two files, whatever the bundler keeps of it.
 */

const root = path.resolve(import.meta.dirname, '../..');
const FOLDERS = ['lib', 'server', 'app', 'components', 'cli'] as const;

interface Import {
  target: string;
}

/** Every cycle of the import graph of `files` (all imports), each as the files it joins. */
function cyclesAmong(files: readonly string[], at: string): string[][] {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const f of files)
    graph.set(
      f,
      (importsOf(f, at) as Import[]).map((i) => i.target).filter((t) => known.has(t)),
    );
  // Tarjan's strongly connected components, iteratively (the graph is deep)
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out: string[][] = [];
  let next = 0;
  for (const start of files) {
    if (index.has(start)) continue;
    const work: { v: string; i: number }[] = [{ v: start, i: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const edges = graph.get(top.v) ?? [];
      if (top.i < edges.length) {
        const w = edges[top.i++]!;
        if (!index.has(w)) {
          index.set(w, next);
          low.set(w, next++);
          stack.push(w);
          onStack.add(w);
          work.push({ v: w, i: 0 });
        } else if (onStack.has(w)) low.set(top.v, Math.min(low.get(top.v)!, index.get(w)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.v, Math.min(low.get(parent.v)!, low.get(top.v)!));
      if (low.get(top.v) !== index.get(top.v)) continue;
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== top.v);
      if (scc.length > 1 || edges.includes(top.v))
        out.push(scc.map((f) => path.relative(at, f)).sort());
    }
  }
  return out;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-type-cycles-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function project(files: Record<string, string>): string {
  const at = fs.mkdtempSync(path.join(dir, 'p-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(at, name)), { recursive: true });
    fs.writeFileSync(path.join(at, name), text);
  }
  return at;
}

describe('no import cycle, type-only imports included', () => {
  it('finds a cycle made of type-only imports, also through `export type` and the @/ alias', () => {
    const at = project({
      'x/a.ts': "import type { B } from './b';\nexport type A = { b: B };\n",
      'x/b.ts': "export type { C as B } from '@/x/c';\n",
      'x/c.ts': "import { type A } from './a';\nexport type C = A[];\n",
      'x/d.ts': "import type { A } from './a';\nexport type D = A;\n",
    });
    expect(cyclesAmong(sourceFiles(path.join(at, 'x')) as string[], at)).toEqual([
      ['x/a.ts', 'x/b.ts', 'x/c.ts'],
    ]);
  });

  it('finds none in an acyclic graph', () => {
    const at = project({
      'y/a.ts': "import type { B } from './b';\nexport type A = B;\n",
      'y/b.ts': 'export type B = 1;\n',
    });
    expect(cyclesAmong(sourceFiles(path.join(at, 'y')) as string[], at)).toEqual([]);
  });

  const files = FOLDERS.flatMap((d) => sourceFiles(path.join(root, d)) as string[]);
  const cycles = cyclesAmong(files, root);
  // one case per part of the tree, so a cycle is named in the part it is in
  const parts: { name: string; holds: (f: string) => boolean }[] = [
    { name: 'lib/', holds: (f) => f.startsWith('lib/') },
    { name: 'server/sim/', holds: (f) => f.startsWith('server/sim/') },
    {
      name: 'server/ (outside sim)',
      holds: (f) => f.startsWith('server/') && !f.startsWith('server/sim/'),
    },
    { name: 'app/', holds: (f) => f.startsWith('app/') },
    { name: 'components/', holds: (f) => f.startsWith('components/') },
    { name: 'cli/', holds: (f) => f.startsWith('cli/') },
  ];
  it.each(parts)('in $name', ({ holds }) => {
    expect(cycles.filter((c) => c.some(holds)).map((c) => c.join(' <-> '))).toEqual([]);
  });
});
