import fs from 'node:fs';
import path from 'node:path';
import { isValidElement, type ReactElement, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ParamSchemas, type ParamKind } from '../../lib/api/param-kinds';
import { PAGE_PARAMS, ROUTE_PARAMS, type RouteParamSpec } from '../../lib/api/route-params';
import { ErrorPanel } from '../../components/ui/ErrorPanel';
import { POD_LIST_QUERY_KINDS } from '../../lib/inventory/pod-list';
import { FLEET_QUERY_KINDS } from '../../lib/proxies/page';
import { TIMELINE_QUERY_KINDS } from '../../lib/timeline/fleet-page';
import { ParamProblem } from '../../components/ui/ParamProblem';
import { WindowProblem } from '../../components/ui/WindowProblem';
import { resetRegistry } from '../../server/runtime/registry';
import { url, useEdgeCluster, type ErrorBody } from './support';

/**
 * The parameter rule, table-driven from the registry (lib/api/route-params.ts): every route
 * handler and every page is sent a bad value for each parameter it takes, by the parameter's
 * kind, and must answer the 400 naming that parameter (a page: the error naming it, in the page);
 * every one that takes a namespace is sent one the cluster does not have and must answer the
 * 404 naming it. A route added to the registry is covered without a line here.
 */
const next = vi.hoisted(() => ({ headers: new Headers({ host: '127.0.0.1:3000' }) }));
vi.mock('next/headers', () => ({ headers: () => Promise.resolve(next.headers) }));
vi.mock('next/navigation', async (original) => ({
  ...(await original<typeof import('next/navigation')>()),
  redirect: (to: string) => {
    throw new Error(`redirect to ${to}`);
  },
}));

useEdgeCluster('route-table');

/** A value each kind must refuse (and why a tester would send it). */
const BAD: Record<ParamKind, string> = {
  namespace: 'UPPER',
  pod: 'Bad_Name',
  ip: 'not-an-ip',
  client: '../../etc',
  ref: 'no-namespace',
  format: 'bogus',
  workload: 'Bad_Workload',
  flag: 'yes',
  snapshot: 'not-an-id',
  text: 'a\u0000b',
  token: '<script>',
  count: '-1',
  limit: '0',
  page: '0',
  dir: 'up',
  severity: 'fatal',
  verdict: 'bogus',
  time: 'yesterday',
  context: 'a b',
  uid: '../etc',
};
/** A value each kind of path segment takes, for the segments not under test. */
const GOOD_SEGMENT: Partial<Record<ParamKind, string>> = {
  namespace: 'shop',
  pod: 'web-0',
  snapshot: 'A'.repeat(22),
};
const MISSING_NS = 'does-not-exist';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const routeFile = (key: string) => path.join(ROOT, 'app', ...key.split('/').slice(1), 'route.ts');

type Handler = (
  req: Request,
  ctx: { params: Promise<Record<string, string>> },
) => Response | Promise<Response>;

/** The handlers of a route that take a URL: each method it exports but the session's forms. */
async function handlersOf(key: string): Promise<[string, Handler][]> {
  const mod = (await import(routeFile(key))) as Record<string, unknown>;
  return ['GET', 'POST', 'DELETE']
    .filter((m) => typeof mod[m] === 'function')
    .map((m) => [m, mod[m] as Handler]);
}

const LOG_LINE =
  '[2026-11-01T11:59:00.000Z] "GET /cart HTTP/1.1" 503 UH no_healthy_upstream - "-" 0 19 0 - "-" "curl" "x" "cart.shop:80" "-" outbound|80||cart.shop.svc.cluster.local - 10.96.0.10:80 10.244.1.17:41234 - default\n';

function call(
  key: string,
  method: string,
  h: Handler,
  query: string,
  segments: Record<string, string> = {},
) {
  const p = key.replace(/\[(\w+)\]/g, (_m, name: string) =>
    encodeURIComponent(segments[name] ?? ''),
  );
  const post = method === 'POST';
  return h(
    new Request(url(`${p}${query}`), {
      method,
      ...(post ? { headers: { 'Content-Type': 'text/plain' }, body: LOG_LINE } : {}),
    }),
    { params: Promise.resolve(segments) },
  );
}

const goodSegments = (spec: RouteParamSpec) =>
  Object.fromEntries(
    Object.entries(spec.path ?? {}).map(([n, k]) => [n, GOOD_SEGMENT[k] ?? 'x']),
  ) as Record<string, string>;

async function errorOf(res: Response): Promise<ErrorBody['error'] & { hint?: string }> {
  return ((await res.json()) as { error: ErrorBody['error'] & { hint?: string } }).error;
}

describe('the registry and the parsers the routes hand their parameters to', () => {
  it('declares every parameter a parser reads, with the same kind', () => {
    // a parser gets only what its route declares: an undeclared one would never reach it
    expect(ROUTE_PARAMS['/api/timelines'].query).toMatchObject(TIMELINE_QUERY_KINDS);
    expect(ROUTE_PARAMS['/api/pods'].query).toMatchObject(POD_LIST_QUERY_KINDS);
    expect(ROUTE_PARAMS['/api/proxies/fleet'].query).toMatchObject(FLEET_QUERY_KINDS);
  });
});

describe('the table of bad values', () => {
  it('holds a refused value for every kind', () => {
    for (const kind of Object.keys(ParamSchemas) as ParamKind[]) {
      expect(BAD[kind], kind).toBeDefined();
      expect(ParamSchemas[kind].safeParse(BAD[kind]).success, kind).toBe(false);
    }
  });
});

describe('API routes: a bad value per parameter is the 400 naming it', () => {
  for (const [key, spec] of Object.entries(ROUTE_PARAMS) as [string, RouteParamSpec][]) {
    const query = Object.entries(spec.query);
    const segments = Object.entries(spec.path ?? {});
    if (query.length === 0 && segments.length === 0) continue;
    it(key, async () => {
      const handlers = await handlersOf(key);
      expect(handlers.length, key).toBeGreaterThan(0);
      for (const [method, h] of handlers) {
        for (const [name, kind] of query) {
          const res = await call(
            key,
            method,
            h,
            `?${name}=${encodeURIComponent(BAD[kind])}`,
            goodSegments(spec),
          );
          const what = `${method} ${key}?${name}=${BAD[kind]}`;
          expect(res.status, what).toBe(400);
          const e = await errorOf(res);
          expect(e.code, what).toBe('INVALID_PARAMETER');
          expect(e.message.startsWith(`${name}: `), `${what}: ${e.message}`).toBe(true);
          expect(e.hint, what).toBeTruthy();
        }
        for (const [name, kind] of segments) {
          const res = await call(key, method, h, '', { ...goodSegments(spec), [name]: BAD[kind] });
          const what = `${method} ${key} [${name}]=${BAD[kind]}`;
          expect(res.status, what).toBe(400);
          const e = await errorOf(res);
          expect(e.code, what).toBe('INVALID_PARAMETER');
          expect(e.message.startsWith(`${name}: `), `${what}: ${e.message}`).toBe(true);
        }
      }
    });
  }
});

describe('API routes: a parameter the route does not take is the 400 naming it', () => {
  for (const [key, spec] of Object.entries(ROUTE_PARAMS) as [string, RouteParamSpec][]) {
    it(key, async () => {
      for (const [method, h] of await handlersOf(key)) {
        // a misspelt filter, which would otherwise leave the view unfiltered
        const res = await call(key, method, h, '?namspace=shop&context=', goodSegments(spec));
        const what = `${method} ${key}?namspace=shop`;
        expect(res.status, what).toBe(400);
        const e = await errorOf(res);
        expect(e.code, what).toBe('INVALID_PARAMETER');
        expect(e.message, what).toBe(`namspace: is not a parameter of ${key}`);
      }
    });
  }
});

describe('API routes: a namespace the cluster does not have is the 404 naming it', () => {
  for (const [key, spec] of Object.entries(ROUTE_PARAMS) as [string, RouteParamSpec][]) {
    const inQuery = spec.query.namespace === 'namespace';
    const inPath = spec.path?.namespace === 'namespace';
    if (!inQuery && !inPath) continue;
    it(key, async () => {
      for (const [method, h] of await handlersOf(key)) {
        const res = inQuery
          ? await call(key, method, h, `?namespace=${MISSING_NS}`, goodSegments(spec))
          : await call(key, method, h, '', { ...goodSegments(spec), namespace: MISSING_NS });
        const what = `${method} ${key} in ${MISSING_NS}`;
        expect(res.status, what).toBe(404);
        const e = await errorOf(res);
        // a pod's history and timeline are kept after its namespace is gone: "no such pod" then
        if (inQuery || spec.liveNamespace) {
          expect(e.code, what).toBe('NAMESPACE_NOT_FOUND');
          expect(e.message, what).toBe(`namespace: "${MISSING_NS}" does not exist in this cluster`);
        } else expect(e.message, what).toContain(MISSING_NS);
      }
    });
  }
});

// ---- pages: the same table, rendered as server components ----

type Params = Record<string, string | string[] | undefined>;
type PageFn = (props: {
  searchParams: Promise<Params>;
  params: Promise<Record<string, string>>;
}) => Promise<ReactNode>;

const pageFile = (key: string) => {
  const segs = key.split('/').slice(1).filter(Boolean);
  const grouped = path.join(ROOT, 'app', '(views)', ...segs, 'page.tsx');
  return fs.existsSync(grouped) ? grouped : path.join(ROOT, 'app', ...segs, 'page.tsx');
};

function elements(node: ReactNode): ReactElement<Record<string, unknown>>[] {
  if (Array.isArray(node)) return node.flatMap(elements);
  if (!isValidElement<Record<string, unknown>>(node)) return [];
  return [node, ...elements(node.props.children as ReactNode)];
}

/** The problems a rendered page shows: its ParamProblem, WindowProblem and ErrorPanel props. */
async function problemsOf(
  key: string,
  search: Params,
  segments: Record<string, string> = {},
): Promise<{ status?: number; code?: string; message: string }[]> {
  const mod = (await import(pageFile(key))) as { default: PageFn };
  const tree = await mod.default({
    searchParams: Promise.resolve(search),
    params: Promise.resolve(segments),
  });
  return elements(tree).flatMap((e) => {
    if (e.type === ParamProblem || e.type === WindowProblem)
      return [e.props.problem as { status?: number; code?: string; message: string }];
    if (e.type === ErrorPanel) return [e.props as { code?: string; message: string }];
    return [];
  });
}

describe('pages: a bad value per parameter is shown in the page, naming it', () => {
  for (const [key, spec] of Object.entries(PAGE_PARAMS) as [string, RouteParamSpec][]) {
    const query = Object.entries(spec.query);
    const segments = Object.entries(spec.path ?? {});
    if (query.length === 0 && segments.length === 0) continue;
    it(key, async () => {
      for (const [name, kind] of query) {
        const problems = await problemsOf(key, { [name]: BAD[kind] }, goodSegments(spec));
        const what = `${key}?${name}=${BAD[kind]}`;
        expect(problems.length, what).toBe(1);
        expect(
          problems[0]?.message.startsWith(`${name}: `),
          `${what}: ${problems[0]?.message}`,
        ).toBe(true);
      }
      for (const [name, kind] of segments) {
        const problems = await problemsOf(key, {}, { ...goodSegments(spec), [name]: BAD[kind] });
        const what = `${key} [${name}]=${BAD[kind]}`;
        expect(problems.length, what).toBe(1);
        expect(problems[0]?.code, what).toBe('INVALID_PARAMETER');
        expect(
          problems[0]?.message.startsWith(`${name}: `),
          `${what}: ${problems[0]?.message}`,
        ).toBe(true);
      }
    });
  }
});

describe('pages: a namespace the cluster does not have is the 404 naming it, in the page', () => {
  for (const [key, spec] of Object.entries(PAGE_PARAMS) as [string, RouteParamSpec][]) {
    if (spec.query.namespace !== 'namespace') continue;
    it(key, async () => {
      const problems = await problemsOf(key, { namespace: MISSING_NS });
      expect(problems, key).toEqual([
        expect.objectContaining({
          status: 404,
          code: 'NAMESPACE_NOT_FOUND',
          message: `namespace: "${MISSING_NS}" does not exist in this cluster`,
        }),
      ]);
    });
  }
});

describe('pages: a cluster that cannot be asked is not a namespace problem', () => {
  it('a page with a namespace renders, its view left to show the cluster failure', async () => {
    const kubeconfig = process.env.MESHDX_KUBECONFIG;
    process.env.MESHDX_KUBECONFIG = '/nonexistent/meshdx/kubeconfig';
    resetRegistry();
    try {
      const mod = (await import(pageFile('/findings'))) as { default: PageFn };
      const tree = await mod.default({
        searchParams: Promise.resolve({ namespace: 'shop' }),
        params: Promise.resolve({}),
      });
      expect(elements(tree).some((e) => e.type === ParamProblem)).toBe(false);
    } finally {
      process.env.MESHDX_KUBECONFIG = kubeconfig;
      resetRegistry();
    }
  });
});
