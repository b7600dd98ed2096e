// ESLint rule meshdx/no-cycle: no module may reach itself again through its (value) imports.
// The import graph of the whole project is read once per lint run with TypeScript's parser
// (type-only imports and exports are left out: they vanish at run time), resolving relative
// paths and the `@/` alias of tsconfig.json. A file in a cycle is reported at the import that
// enters the cycle, with the cycle spelled out.
import path from 'node:path';
import { importsOf as allImportsOf } from './import-graph.mjs';

const graphs = new Map();

/** The value imports of one file. */
function importsOf(file, root) {
  return allImportsOf(file, root).filter((i) => !i.typeOnly);
}

function graphFor(root) {
  let g = graphs.get(root);
  if (!g) {
    g = new Map();
    graphs.set(root, g);
  }
  return g;
}

function edges(file, root) {
  const g = graphFor(root);
  let e = g.get(file);
  if (!e) {
    try {
      e = importsOf(file, root);
    } catch {
      e = [];
    }
    g.set(file, e);
  }
  return e;
}

/** A path from `start` back to `target` through value imports, or null. */
function pathBack(start, target, root) {
  const seen = new Set([start]);
  const prev = new Map();
  const queue = [start];
  while (queue.length > 0) {
    const cur = queue.shift();
    for (const { target: next } of edges(cur, root)) {
      if (next === target) {
        const chain = [next, cur];
        let p = cur;
        while (prev.has(p)) {
          p = prev.get(p);
          chain.push(p);
        }
        return chain.reverse();
      }
      if (!seen.has(next)) {
        seen.add(next);
        prev.set(next, cur);
        queue.push(next);
      }
    }
  }
  return null;
}

export const noCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'forbid import cycles (value imports, whole project)' },
    schema: [],
    messages: { cycle: 'import cycle: {{cycle}}' },
  },
  create(context) {
    const file = path.resolve(context.filename);
    const root = path.resolve(context.cwd);
    if (file.includes(`${path.sep}node_modules${path.sep}`)) return {};
    return {
      Program(node) {
        for (const imp of edges(file, root)) {
          const back = pathBack(imp.target, file, root);
          if (!back) continue;
          const cycle = [file, ...back].map((f) => path.relative(root, f)).join(' -> ');
          context.report({
            node,
            loc: { line: imp.line, column: 0 },
            messageId: 'cycle',
            data: { cycle },
          });
        }
      },
    };
  },
};

export default { rules: { 'no-cycle': noCycle } };
