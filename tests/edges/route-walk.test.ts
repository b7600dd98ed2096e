import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { PAGE_PARAMS, ROUTE_PARAMS, type RouteParamSpec } from '../../lib/api/route-params';

/**
 * One parameter rule for every route, held by walking the files: every app/api/**\/route.ts and
 * app/**\/page.tsx is in the registry of parameters (lib/api/route-params.ts) and reads its URL
 * only through the doors that check each parameter by its kind (routeQuery, routePath,
 * pageQuery, pagePath; the window's and the context's own doors). A new route that reads a
 * parameter any other way, or is missing from the registry, fails here.
 */
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const APP = path.join(ROOT, 'app');

/** Files named `file` under app/ (folders starting with "_" are not routes), by their route key. */
function walk(file: string, dir = APP): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory() && !e.name.startsWith('_'))
      for (const [k, v] of walk(file, p)) out.set(k, v);
    else if (e.isFile() && e.name === file) {
      // route groups, "(views)", are not part of the URL
      const segs = path
        .relative(APP, dir)
        .split(path.sep)
        .filter((s) => s !== '' && !/^\(.*\)$/.test(s));
      out.set(`/${segs.join('/')}`, p);
    }
  }
  return out;
}

/** The doors a URL parameter may be handed to: each checks what it reads. */
const DOORS = new Set([
  'routeQuery',
  'routePath',
  'pageQuery',
  'pagePath',
  'pageScope', // the context, through contextFrom
  'openPage', // a page's opening (app/_lib/page-opening.tsx): pageScope
  'viewPage', // a view page's opening: openPage, the window, then pageQuery by its spec's route
  'contextFrom',
  'windowOf', // from/to, each a 400 naming it (lib/api/time-param.ts)
  'windowAt',
  'resolveWindow',
]);
/** Doors that take the route's key, and the argument it is in. */
const KEYED: Record<string, number> = { routeQuery: 1, routePath: 1, pageQuery: 1, pagePath: 0 };
const WINDOWS = new Set(['windowOf', 'windowAt', 'resolveWindow']);

const calleeName = (c: ts.CallExpression): string | null =>
  ts.isIdentifier(c.expression)
    ? c.expression.text
    : ts.isPropertyAccessExpression(c.expression)
      ? c.expression.name.text
      : null;

/** The call `node` is a direct argument of, if any (through parentheses and `await`). */
function argumentOf(node: ts.Node): ts.CallExpression | null {
  let n = node;
  while (ts.isParenthesizedExpression(n.parent) || ts.isAwaitExpression(n.parent)) n = n.parent;
  const p = n.parent;
  return ts.isCallExpression(p) && p.arguments.some((a) => a === n) ? p : null;
}

interface Walked {
  problems: string[];
  keyed: { door: string; key: string }[];
}

/** What a route or page file does with its URL parameters. */
function inspect(file: string, kind: 'route' | 'page'): Walked {
  const src = ts.createSourceFile(
    file,
    fs.readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
  );
  const problems: string[] = [];
  const keyed: Walked['keyed'] = [];
  const at = (n: ts.Node) => {
    const { line } = src.getLineAndCharacterOfPosition(n.getStart(src));
    return `${path.relative(ROOT, file)}:${line + 1}: ${n.getText(src).slice(0, 80)}`;
  };
  /** Names holding the URL's parameters unchecked: the handler's or page's own, and copies. */
  const raw = new Set<string>();
  /** Names holding a window door's answer (its `params` are every parameter, unchecked). */
  const windows = new Set<string>();

  const taintParams = (fn: ts.SignatureDeclaration) => {
    const from = kind === 'route' ? fn.parameters.slice(1) : fn.parameters;
    for (const p of from) {
      if (ts.isIdentifier(p.name)) raw.add(p.name.text);
      else if (ts.isObjectBindingPattern(p.name))
        for (const el of p.name.elements) if (ts.isIdentifier(el.name)) raw.add(el.name.text);
    }
  };
  const visitDecls = (n: ts.Node) => {
    const exported =
      ts.canHaveModifiers(n) &&
      (ts.getModifiers(n) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (ts.isFunctionDeclaration(n) && exported) {
      const isHandler =
        kind === 'route'
          ? /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$/.test(n.name?.text ?? '')
          : (ts.getModifiers(n) ?? []).some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
      if (isHandler) taintParams(n);
    }
    ts.forEachChild(n, visitDecls);
  };
  visitDecls(src);

  // copies: `const x = await searchParams` holds them unchecked too; `const w = windowOf(...)`
  const visitCopies = (n: ts.Node) => {
    if (ts.isVariableDeclaration(n) && n.initializer) {
      let init: ts.Expression = n.initializer;
      while (ts.isAwaitExpression(init) || ts.isParenthesizedExpression(init))
        init = init.expression;
      const copiesRaw =
        (ts.isIdentifier(init) && raw.has(init.text)) ||
        (ts.isPropertyAccessExpression(init) &&
          ts.isIdentifier(init.expression) &&
          raw.has(init.expression.text));
      if (copiesRaw) {
        if (ts.isIdentifier(n.name)) raw.add(n.name.text);
        else problems.push(`reads parameters by destructuring: ${at(n)}`);
      }
      if (ts.isCallExpression(init) && WINDOWS.has(calleeName(init) ?? '')) {
        if (ts.isIdentifier(n.name)) windows.add(n.name.text);
        else problems.push(`takes the unchecked params of a window door: ${at(n)}`);
      }
    }
    ts.forEachChild(n, visitCopies);
  };
  visitCopies(src);

  const visit = (n: ts.Node) => {
    if (ts.isCallExpression(n)) {
      const name = calleeName(n);
      // viewPage(searchParams, { route: '/x', ... }) reads its query through pageQuery by `route`
      if (name === 'viewPage') {
        const spec = n.arguments[1];
        const route =
          spec && ts.isObjectLiteralExpression(spec)
            ? spec.properties.find(
                (p): p is ts.PropertyAssignment =>
                  ts.isPropertyAssignment(p) && p.name.getText(src) === 'route',
              )?.initializer
            : undefined;
        if (route && ts.isStringLiteralLike(route))
          keyed.push({ door: 'pageQuery', key: route.text });
        else problems.push(`viewPage without its route's key as a string: ${at(n)}`);
      }
      if (name !== null && Object.hasOwn(KEYED, name)) {
        const arg = n.arguments[KEYED[name] as number];
        if (arg && ts.isStringLiteralLike(arg)) keyed.push({ door: name, key: arg.text });
        else problems.push(`${name} without its route's key as a string: ${at(n)}`);
      }
      // reading a parameter by hand: .get('x'), .getAll, .has (a request's headers excepted)
      if (
        ts.isPropertyAccessExpression(n.expression) &&
        ['get', 'getAll', 'has', 'entries', 'forEach', 'keys', 'values'].includes(
          n.expression.name.text,
        ) &&
        !/headers$/i.test(n.expression.expression.getText(src)) &&
        !/^(Object|Array|Promise)$/.test(n.expression.expression.getText(src))
      )
        problems.push(`reads parameters by hand: ${at(n)}`);
    }
    if (ts.isPropertyAccessExpression(n)) {
      const prop = n.name.text;
      if (prop === 'searchParams' || prop === 'nextUrl') {
        const call = argumentOf(n);
        if (prop === 'nextUrl' || !call || !DOORS.has(calleeName(call) ?? ''))
          problems.push(`${prop} not handed to a door: ${at(n)}`);
      }
      // a window door's `params` may only go on to the checking door (or into a redirect's link)
      if (prop === 'params' && ts.isIdentifier(n.expression) && windows.has(n.expression.text)) {
        let ok = false;
        for (let p: ts.Node = n.parent; !ts.isSourceFile(p) && !ts.isStatement(p); p = p.parent)
          if (ts.isCallExpression(p) && p.expression !== n.parent) {
            const c = calleeName(p);
            if (c === 'routeQuery' || c === 'pageQuery' || c === 'redirect') ok = true;
          }
        if (!ok) problems.push(`a window's unchecked params used: ${at(n)}`);
      }
    }
    if (ts.isIdentifier(n) && raw.has(n.text)) {
      const parent = n.parent;
      const declared =
        (ts.isParameter(parent) ||
          ts.isBindingElement(parent) ||
          ts.isVariableDeclaration(parent)) &&
        parent.name === n;
      const isPropName =
        (ts.isPropertyAccessExpression(parent) && parent.name === n) ||
        (ts.isPropertyAssignment(parent) && parent.name === n) ||
        ts.isPropertySignature(parent);
      if (!declared && !isPropName) {
        // used as a whole: must be handed to a door, or copied (checked above)
        let use: ts.Node = n;
        if (ts.isPropertyAccessExpression(parent) && parent.expression === n) {
          // ctx.params: the route's path params, to routePath only
          if (parent.name.text !== 'params') problems.push(`reads ${at(parent)}`);
          use = parent;
        } else if (ts.isElementAccessExpression(parent)) problems.push(`reads ${at(parent)}`);
        let up = use;
        while (ts.isAwaitExpression(up.parent) || ts.isParenthesizedExpression(up.parent))
          up = up.parent;
        const copied = ts.isVariableDeclaration(up.parent) && up.parent.initializer === up;
        const call = argumentOf(use);
        if (!copied && !(call && DOORS.has(calleeName(call) ?? '')))
          problems.push(`parameters not handed to a door: ${at(use)}`);
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(src);
  return { problems, keyed };
}

function check(
  files: Map<string, string>,
  registry: Record<string, RouteParamSpec>,
  kind: 'route' | 'page',
) {
  it('every file is in the registry, and every entry is a file', () => {
    expect([...files.keys()].sort()).toEqual(Object.keys(registry).sort());
  });
  for (const [key, file] of files) {
    it(`${key} reads its parameters through the doors, by its own key`, () => {
      const spec = registry[key];
      if (!spec) return; // named by the test above
      const { problems, keyed } = inspect(file, kind);
      expect(problems).toEqual([]);
      for (const k of keyed) expect(k.key, `${k.door} in ${key}`).toBe(key);
      const doors = new Set(keyed.map((k) => k.door));
      const queryDoor = kind === 'route' ? 'routeQuery' : 'pageQuery';
      const pathDoor = kind === 'route' ? 'routePath' : 'pagePath';
      // a route refuses a parameter it does not take, so each goes through its query door;
      // a page is opened from links that may carry more (a Grafana link's orgId)
      if (kind === 'route' || Object.keys(spec.query).length > 0)
        expect(doors.has(queryDoor), `${key} reads its query through ${queryDoor}`).toBe(true);
      if (spec.path)
        expect(doors.has(pathDoor), `${key} has ${Object.keys(spec.path).join(', ')}`).toBe(true);
      else expect(doors.has(pathDoor), `${key} has no path parameters`).toBe(false);
    });
  }
}

describe('API routes (app/api/**/route.ts)', () => {
  check(walk('route.ts', path.join(APP, 'api')), ROUTE_PARAMS, 'route');
});

describe('pages (app/**/page.tsx)', () => {
  check(walk('page.tsx'), PAGE_PARAMS, 'page');
});

describe('the walk itself', () => {
  const write = (name: string, text: string) => {
    const dir = fs.mkdtempSync(path.join(ROOT, 'node_modules', '.route-walk-'));
    const f = path.join(dir, name);
    fs.writeFileSync(f, text);
    try {
      return inspect(f, name === 'route.ts' ? 'route' : 'page').problems;
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };

  it('catches the ways a route reads a parameter by hand', () => {
    for (const text of [
      `export function GET(req: Request) { const sp = new URL(req.url).searchParams; return sp.get('x'); }`,
      `export function GET(req: Request) { return new URL(req.url).searchParams.get('x'); }`,
      `export async function GET(req: Request, ctx: { params: Promise<{ id: string }> }) { return (await ctx.params).id; }`,
      `export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) { const { id } = await params; return id; }`,
      `export function GET(req: Request) { const { params } = windowOf(s, new URL(req.url).searchParams); return parse(params); }`,
      `export function GET(req: Request) { const w = windowOf(s, new URL(req.url).searchParams); return parse(w.params); }`,
    ])
      expect(write('route.ts', text), text).not.toEqual([]);
  });

  it('catches a page reading its search params by hand', () => {
    for (const text of [
      `export default async function P({ searchParams }: { searchParams: Promise<Record<string, string>> }) { const sp = await searchParams; return sp.reason; }`,
      `export default async function P({ searchParams }: { searchParams: Promise<Record<string, string>> }) { const sp = await searchParams; return sp['reason']; }`,
      `export default async function P({ params }: { params: Promise<{ id: string }> }) { const { id } = await params; return id; }`,
    ])
      expect(write('page.tsx', text), text).not.toEqual([]);
  });

  it('lets the doors through', () => {
    expect(
      write(
        'route.ts',
        `export function GET(req: Request, ctx: { params: Promise<{ id: string }> }) { const w = windowOf(s, new URL(req.url).searchParams); return [routeQuery(s, '/x', w.params), routePath(s, '/x', ctx.params, f)]; }`,
      ),
    ).toEqual([]);
  });
});
