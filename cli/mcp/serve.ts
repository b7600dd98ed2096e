/**
 * `meshdx mcp`'s two transports: stdio (one caller, the token of --token-file if any) and
 * streamable HTTP on `/mcp` (stateless: one MCP server per request, acting as the caller its
 * `Authorization: Bearer` names). Both register the same tools (register.ts) over the dashboard.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { dashboardAs, DashboardSessions, type Dashboard } from './dashboard';
import { registerMeshdxTools } from './register';

/** The MCP server of one caller on `dash`, with every meshdx tool. */
export function meshdxMcpServer(dash: Dashboard, version: string): McpServer {
  const server = new McpServer(
    { name: 'meshdx', version },
    {
      instructions:
        "meshdx diagnoses Istio meshes. Its tools read the meshdx dashboard's views (read-only) and each answer links to the view in the dashboard: give the user that link.",
    },
  );
  registerMeshdxTools(server, dash);
  return server;
}

/** Serves one caller on stdin/stdout until stdin ends; resolves then. */
export async function serveStdio(
  base: string,
  token: string | null,
  version: string,
): Promise<void> {
  const sessions = new DashboardSessions(base);
  const server = meshdxMcpServer(dashboardAs(base, token, sessions), version);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await sessions.signOutAll();
  await server.close();
}

const MAX_BODY = 1024 * 1024;
const LOOPBACK: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** The bearer token of a request's Authorization header, or null when it has none. */
export function bearerOf(header: string | undefined): string | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m?.[1] ?? null;
}

function hostName(host: string | undefined): string {
  if (!host) return '';
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  return h.replace(/:\d+$/, '').replace(/\.$/, '');
}

function jsonError(res: http.ServerResponse, status: number, code: number, message: string) {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

async function readBody(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    const b = c as Buffer;
    size += b.length;
    if (size > MAX_BODY) throw new Error('the request body is over 1 MiB');
    chunks.push(b);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
}

export interface McpHttpServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Streamable HTTP on `host:port` `/mcp`. On a loopback address only a loopback Host is answered
 * (a web page cannot reach it by DNS rebinding); POST only (stateless: no session to GET or
 * DELETE).
 */
export async function serveHttp(
  base: string,
  host: string,
  port: number,
  version: string,
): Promise<McpHttpServer> {
  const sessions = new DashboardSessions(base);
  const loopback = LOOPBACK.has(host);
  const srv = http.createServer((req, res) => {
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://mcp.invalid').pathname;
      if (path !== '/mcp') return jsonError(res, 404, -32000, `${path}: the MCP endpoint is /mcp`);
      if (loopback && !LOOPBACK.has(hostName(req.headers.host)))
        return jsonError(res, 421, -32000, 'this MCP server answers only to a loopback Host');
      if (req.method !== 'POST') {
        res.setHeader('Allow', 'POST');
        return jsonError(res, 405, -32000, 'stateless MCP server: POST only');
      }
      let body: unknown;
      try {
        body = await readBody(req);
      } catch (e) {
        return jsonError(res, 400, -32700, `parse error: ${(e as Error).message}`);
      }
      const dash = dashboardAs(base, bearerOf(req.headers.authorization), sessions);
      const server = meshdxMcpServer(dash, version);
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    })().catch((e: unknown) => {
      if (!res.headersSent) jsonError(res, 500, -32603, `internal error: ${(e as Error).message}`);
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    srv.once('error', reject);
    srv.listen(port, host, () => resolve());
  });
  const addr = srv.address() as AddressInfo;
  const shown = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${shown}:${addr.port}/mcp`,
    close: async () => {
      srv.closeAllConnections();
      await new Promise<void>((resolve) => srv.close(() => resolve()));
      await sessions.signOutAll();
    },
  };
}
