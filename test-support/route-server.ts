/**
 * The dashboard's API routes served over HTTP from the test's own process: each request goes to
 * the route handler Next would call (app/api/.../route.ts), with its path segments, headers and
 * body, and the answer is written back as it came. For tests of programs that reach the
 * dashboard over HTTP (meshdx mcp) without a production build; the runtime registry is the
 * test's, on whatever environment it set (runtimeOnSimulator, an auth cluster).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

type Handler = (req: Request, ctx: { params: Promise<never> }) => Promise<Response> | Response;
type RouteModule = Partial<Record<'GET' | 'POST', Handler>>;

/** Every route the server answers: its path pattern and its module. */
const ROUTES: readonly [RegExp, string[], () => Promise<RouteModule>][] = [
  [/^\/api\/incidents$/, [], () => import('../app/api/incidents/route')],
  [/^\/api\/pods$/, [], () => import('../app/api/pods/route')],
  [
    /^\/api\/pods\/([^/]+)\/([^/]+)$/,
    ['namespace', 'name'],
    () => import('../app/api/pods/[namespace]/[name]/route'),
  ],
  [/^\/api\/timelines$/, [], () => import('../app/api/timelines/route')],
  [
    /^\/api\/timelines\/([^/]+)\/([^/]+)$/,
    ['namespace', 'name'],
    () => import('../app/api/timelines/[namespace]/[name]/route'),
  ],
  [/^\/api\/proxies\/fleet$/, [], () => import('../app/api/proxies/fleet/route')],
  [/^\/api\/scoping$/, [], () => import('../app/api/scoping/route')],
  [/^\/api\/findings$/, [], () => import('../app/api/findings/route')],
  [/^\/api\/inventory$/, [], () => import('../app/api/inventory/route')],
  [/^\/api\/snapshots$/, [], () => import('../app/api/snapshots/route')],
  [/^\/api\/snapshots\/([^/]+)$/, ['id'], () => import('../app/api/snapshots/[id]/route')],
  [/^\/api\/session$/, [], () => import('../app/api/session/route')],
  [/^\/api\/session\/logout$/, [], () => import('../app/api/session/logout/route')],
  [/^\/api\/health$/, [], () => import('../app/api/health/route')],
  [/^\/api\/metrics$/, [], () => import('../app/api/metrics/route')],
];

export interface RouteServer {
  /** `http://127.0.0.1:PORT/`. */
  url: string;
  /** Requests answered, `METHOD path?query`, in order. */
  requests: string[];
  close(): Promise<void>;
}

async function body(req: http.IncomingMessage): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (req.method === 'GET' || req.method === 'HEAD') return undefined;
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}

export async function startRouteServer(): Promise<RouteServer> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      requests.push(`${req.method} ${url.pathname}${url.search}`);
      const route = ROUTES.find(([re]) => re.test(url.pathname));
      const handler = route ? (await route[2]())[req.method as 'GET' | 'POST'] : undefined;
      if (!route || !handler) {
        res.writeHead(route ? 405 : 404, { 'Content-Type': 'application/json' });
        res.end(
          JSON.stringify({
            error: { code: route ? 'METHOD' : 'NOT_FOUND', message: url.pathname },
          }),
        );
        return;
      }
      const m = route[0].exec(url.pathname) ?? [];
      const params = Object.fromEntries(
        route[1].map((k, i) => [k, decodeURIComponent(m[i + 1] ?? '')]),
      );
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === 'string') headers.set(k, v);
        else if (Array.isArray(v)) for (const one of v) headers.append(k, one);
      const answer = await handler(
        new Request(`http://${req.headers.host ?? '127.0.0.1'}${url.pathname}${url.search}`, {
          method: req.method,
          headers,
          body: await body(req),
        }),
        // the segments the route's pattern names, as Next hands them
        { params: Promise.resolve(params) as Promise<never> },
      );
      const out: Record<string, string | string[]> = {};
      answer.headers.forEach((v, k) => {
        if (k !== 'set-cookie') out[k] = v;
      });
      const cookies = answer.headers.getSetCookie();
      if (cookies.length > 0) out['set-cookie'] = cookies;
      res.writeHead(answer.status, out);
      res.end(Buffer.from(await answer.arrayBuffer()));
    })().catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end(String(e));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
