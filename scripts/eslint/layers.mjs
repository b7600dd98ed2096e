// ESLint rules that keep the layers of DESIGN.md one way:
// - layers/no-folder-cycle: no import cycle between the folders of a tree (server/ by default).
//   Each folder right under the root is one node, and so is each file directly in the root
//   (server/http.ts); a folder A that imports from B (value imports: type-only ones vanish at
//   run time) while B reaches A again is reported at the import, with the folders and the
//   imports that close the cycle. Test files are not part of the graph: nothing imports them.
// - layers/lib-imports-lib: a file under lib/ imports only from lib/ (and packages), types
//   included: lib/ is the bottom layer, pure, and never reaches up into server/, app/,
//   components/, cli/ or test-support/.
import path from 'node:path';
import { importsOf, sourceFiles } from './import-graph.mjs';

const isTest = (file) => /\.test\.[cm]?[jt]sx?$/.test(file);

/** The node of `file` in the folder graph of `rootDir`: its first segment, or null outside. */
export function folderOf(file, rootDir) {
  const rel = path.relative(rootDir, file);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return null;
  return rel.split(path.sep)[0];
}

const folderGraphs = new Map();

/**
 * The folder graph of `rootDir`: Map<folder, Map<folder, {from, to, line}>> (the first value
 * import seen for each pair of folders), read once per lint run.
 */
function folderGraph(rootDir, projectRoot) {
  const key = `${projectRoot}\n${rootDir}`;
  let g = folderGraphs.get(key);
  if (g) return g;
  g = new Map();
  for (const file of sourceFiles(rootDir)) {
    if (isTest(file)) continue;
    const a = folderOf(file, rootDir);
    let imports;
    try {
      imports = importsOf(file, projectRoot);
    } catch {
      continue;
    }
    for (const imp of imports) {
      if (imp.typeOnly || isTest(imp.target)) continue;
      const b = folderOf(imp.target, rootDir);
      if (b === null || b === a) continue;
      if (!g.has(a)) g.set(a, new Map());
      const out = g.get(a);
      if (!out.has(b)) out.set(b, { from: file, to: imp.target, line: imp.line });
    }
  }
  folderGraphs.set(key, g);
  return g;
}

/** The folders from `start` to `goal` along the graph's edges ([start, ..., goal]), or null. */
export function folderPath(graph, start, goal) {
  const prev = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const cur = queue.shift();
    for (const next of graph.get(cur)?.keys() ?? []) {
      if (prev.has(next)) continue;
      prev.set(next, cur);
      if (next === goal) {
        const chain = [next];
        for (let p = cur; p !== null; p = prev.get(p)) chain.push(p);
        return chain.reverse();
      }
      queue.push(next);
    }
  }
  return null;
}

export const noFolderCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'forbid import cycles between the folders of a tree (value imports)' },
    schema: [
      {
        type: 'object',
        properties: { root: { type: 'string' } },
        additionalProperties: false,
      },
    ],
    messages: { cycle: 'folder cycle: {{cycle}} ({{why}})' },
  },
  create(context) {
    const projectRoot = path.resolve(context.cwd);
    const rootName = context.options[0]?.root ?? 'server';
    const rootDir = path.join(projectRoot, rootName);
    const file = path.resolve(context.filename);
    const here = folderOf(file, rootDir);
    if (here === null || isTest(file)) return {};
    const rel = (f) => path.relative(projectRoot, f);
    const name = (folder) => `${rootName}/${folder}`;
    return {
      Program(node) {
        const graph = folderGraph(rootDir, projectRoot);
        for (const imp of importsOf(file, projectRoot)) {
          if (imp.typeOnly) continue;
          const there = folderOf(imp.target, rootDir);
          if (there === null || there === here) continue;
          const back = folderPath(graph, there, here);
          if (!back) continue;
          const why = back
            .slice(1)
            .map((f, i) => {
              const e = graph.get(back[i]).get(f);
              return `${rel(e.from)}:${e.line} imports ${rel(e.to)}`;
            })
            .join('; ');
          context.report({
            node,
            loc: { line: imp.line, column: 0 },
            messageId: 'cycle',
            data: { cycle: [here, ...back].map(name).join(' -> '), why },
          });
        }
      },
    };
  },
};

export const libImportsLib = {
  meta: {
    type: 'problem',
    docs: { description: 'a file under lib/ imports only from lib/ (types included)' },
    schema: [
      {
        type: 'object',
        properties: { root: { type: 'string' } },
        additionalProperties: false,
      },
    ],
    messages: {
      upward: '{{root}}/ is the bottom layer: {{file}} must not import {{target}} ({{spec}})',
    },
  },
  create(context) {
    const projectRoot = path.resolve(context.cwd);
    const rootName = context.options[0]?.root ?? 'lib';
    const rootDir = path.join(projectRoot, rootName);
    const file = path.resolve(context.filename);
    if (folderOf(file, rootDir) === null) return {};
    return {
      Program(node) {
        for (const imp of importsOf(file, projectRoot)) {
          if (folderOf(imp.target, rootDir) !== null) continue;
          context.report({
            node,
            loc: { line: imp.line, column: 0 },
            messageId: 'upward',
            data: {
              root: rootName,
              file: path.relative(projectRoot, file),
              target: path.relative(projectRoot, imp.target),
              spec: imp.spec,
            },
          });
        }
      },
    };
  },
};

export default { rules: { 'no-folder-cycle': noFolderCycle, 'lib-imports-lib': libImportsLib } };
