// ESLint rules that keep the layers of DESIGN.md one way:
// - layers/no-folder-cycle: no import cycle between the folders of a tree (server/ by default),
//   at every depth. In each folder, its subfolders are nodes, and its own (loose) files together
//   are one more node, written `folder/*` (server/* holds server/http.ts). An import belongs to
//   the deepest folder that holds both its ends: server/sim/api/a.ts importing server/sim/mesh/b.ts
//   is the edge api -> mesh inside server/sim, and server/sim/index.ts importing server/sim/api/c.ts
//   is the edge * -> api there. A node A that imports from B (value imports: type-only ones vanish
//   at run time) while B reaches A again inside the same folder is reported at the import, with
//   the nodes and the imports that close the cycle. A cycle that leaves the folder is a cycle of
//   the folder above, reported there. Test files are not part of the graph: nothing imports them.
// - layers/lib-imports-lib: a file under lib/ imports only from lib/ (and packages), types
//   included: lib/ is the bottom layer, pure, and never reaches up into server/, app/,
//   components/, cli/ or test-support/.
import path from 'node:path';
import { importsOf, sourceFiles } from './import-graph.mjs';

const isTest = (file) => /\.test\.[cm]?[jt]sx?$/.test(file);

/** The first segment of `file` under `rootDir`, or null outside. */
export function folderOf(file, rootDir) {
  const rel = path.relative(rootDir, file);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return null;
  return rel.split(path.sep)[0];
}

/** The node that stands for a folder's own (loose) files. */
export const OWN_FILES = '*';

/**
 * Where an import from `file` to `target` (both under `rootDir`) sits: `dir`, the deepest folder
 * holding both ('' for the root, else 'a/b'), and the nodes `from` and `to` of the two ends in
 * it (a subfolder's name, or OWN_FILES). Null when either end is outside `rootDir`.
 */
export function placeOf(file, target, rootDir) {
  if (folderOf(file, rootDir) === null || folderOf(target, rootDir) === null) return null;
  const a = path.relative(rootDir, file).split(path.sep);
  const b = path.relative(rootDir, target).split(path.sep);
  let i = 0;
  while (i < a.length - 1 && i < b.length - 1 && a[i] === b[i]) i++;
  const node = (segs) => (i === segs.length - 1 ? OWN_FILES : segs[i]);
  return { dir: a.slice(0, i).join('/'), from: node(a), to: node(b) };
}

const folderGraphs = new Map();

/**
 * The folder graphs of `rootDir`: Map<dir, Map<node, Map<node, {from, to, line}>>> (per folder,
 * the first value import seen for each pair of its nodes), read once per lint run.
 */
function folderGraphsOf(rootDir, projectRoot) {
  const key = `${projectRoot}\n${rootDir}`;
  let graphs = folderGraphs.get(key);
  if (graphs) return graphs;
  graphs = new Map();
  for (const file of sourceFiles(rootDir)) {
    if (isTest(file)) continue;
    let imports;
    try {
      imports = importsOf(file, projectRoot);
    } catch {
      continue;
    }
    for (const imp of imports) {
      if (imp.typeOnly || isTest(imp.target)) continue;
      const at = placeOf(file, imp.target, rootDir);
      if (at === null || at.from === at.to) continue;
      if (!graphs.has(at.dir)) graphs.set(at.dir, new Map());
      const g = graphs.get(at.dir);
      if (!g.has(at.from)) g.set(at.from, new Map());
      const out = g.get(at.from);
      if (!out.has(at.to)) out.set(at.to, { from: file, to: imp.target, line: imp.line });
    }
  }
  folderGraphs.set(key, graphs);
  return graphs;
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
    docs: {
      description:
        'forbid import cycles between the folders of a tree, at every depth (value imports)',
    },
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
    const file = path.resolve(context.filename);
    return {
      Program(node) {
        for (const found of cyclesOf(file, rootName, projectRoot))
          context.report({
            node,
            loc: { line: found.line, column: 0 },
            messageId: 'cycle',
            data: found,
          });
      },
    };
  },
};

/**
 * The folder cycles the value imports of `file` close (`rootName` under `projectRoot`):
 * [{ line, cycle, why }], the cycle as its nodes and the why as the imports that lead back.
 */
export function cyclesOf(file, rootName, projectRoot) {
  const rootDir = path.join(projectRoot, rootName);
  if (folderOf(file, rootDir) === null || isTest(file)) return [];
  const graphs = folderGraphsOf(rootDir, projectRoot);
  const rel = (f) => path.relative(projectRoot, f);
  const name = (dir, n) => [rootName, dir, n].filter((s) => s !== '').join('/');
  const found = [];
  for (const imp of importsOf(file, projectRoot)) {
    if (imp.typeOnly) continue;
    const at = placeOf(file, imp.target, rootDir);
    if (at === null || at.from === at.to) continue;
    const graph = graphs.get(at.dir);
    const back = graph ? folderPath(graph, at.to, at.from) : null;
    if (!back) continue;
    const why = back
      .slice(1)
      .map((n, i) => {
        const e = graph.get(back[i]).get(n);
        return `${rel(e.from)}:${e.line} imports ${rel(e.to)}`;
      })
      .join('; ');
    const cycle = [at.from, ...back].map((n) => name(at.dir, n)).join(' -> ');
    found.push({ line: imp.line, cycle, why });
  }
  return found;
}

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
