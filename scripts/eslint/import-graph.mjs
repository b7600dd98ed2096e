// The project's import graph as the lint rules read it: every relative or `@/` import of a file,
// resolved to a file (TypeScript's parser; extensions and index files as the bundlers resolve
// them), each marked type-only or not (type-only imports and exports vanish at run time).
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const EXTS = ['.ts', '.tsx', '.mts', '.mjs', '.js'];

/** The file `spec` (relative, or `@/` from `root`) names from `from`, or null (a package). */
export function resolveImport(from, spec, root) {
  let base;
  if (spec.startsWith('@/')) base = path.join(root, spec.slice(2));
  else if (spec.startsWith('.')) base = path.resolve(path.dirname(from), spec);
  else return null;
  const candidates = [
    base,
    ...EXTS.map((e) => base + e),
    ...EXTS.map((e) => path.join(base, `index${e}`)),
  ];
  for (const c of candidates) {
    try {
      if (fs.statSync(c).isFile()) return c;
    } catch {
      // next candidate
    }
  }
  return null;
}

function isTypeOnlyImport(st) {
  const clause = st.importClause;
  if (clause?.isTypeOnly) return true;
  return Boolean(
    clause &&
    !clause.name &&
    clause.namedBindings &&
    ts.isNamedImports(clause.namedBindings) &&
    clause.namedBindings.elements.length > 0 &&
    clause.namedBindings.elements.every((e) => e.isTypeOnly),
  );
}

/** The resolved imports of one file: [{ spec, target, line, typeOnly }]. */
export function importsOf(file, root) {
  const text = fs.readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const out = [];
  for (const st of sf.statements) {
    let spec = null;
    let typeOnly = false;
    if (ts.isImportDeclaration(st)) {
      spec = st.moduleSpecifier.text;
      typeOnly = isTypeOnlyImport(st);
    } else if (ts.isExportDeclaration(st) && st.moduleSpecifier) {
      spec = st.moduleSpecifier.text;
      typeOnly = st.isTypeOnly;
    }
    if (spec === null) continue;
    const target = resolveImport(file, spec, root);
    if (target)
      out.push({
        spec,
        target,
        typeOnly,
        line: sf.getLineAndCharacterOfPosition(st.getStart(sf)).line + 1,
      });
  }
  return out;
}

/** The source files under `dir` (node_modules and dot-folders left out). */
export function sourceFiles(dir) {
  const out = [];
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (EXTS.includes(path.extname(e.name)) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}
