/**
 * `meshdx mcp --listen` in front of a dashboard in token mode (MESHDX_AUTH=token) on a simulated
 * API server that checks tokens and RBAC: each MCP caller's `Authorization: Bearer` token signs
 * in to the dashboard as that caller, so a user reads through the tools exactly what their own
 * RBAC lets the dashboard show them, refused in the dashboard's words when it does not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { resetAuthState } from '../../server/auth/request';
import { resetRegistry } from '../../server/runtime/registry';
import { serveHttp, type McpHttpServer } from '../../cli/mcp/serve';
import { startRouteServer, type RouteServer } from '../../test-support/route-server';
import { restoreMeshdx, startAuthCluster, USERS, type AuthCluster } from '../auth/harness';
import { requireKubectl } from '../sim/kubectl-harness';

requireKubectl('the MCP token-mode test (it applies deploy/ RBAC rendered by kubectl)');

const saved = { ...process.env };
let c: AuthCluster;
let api: RouteServer;
let mcp: McpHttpServer;

beforeAll(async () => {
  c = await startAuthCluster();
  process.env = {
    ...saved,
    MESHDX_DB: ':memory:',
    MESHDX_AUTH: 'token',
    MESHDX_KUBECONFIG: c.kubeconfigFor(USERS.meshdx.token),
  };
  delete process.env.MESHDX_CONTEXT;
  resetRegistry();
  resetAuthState();
  api = await startRouteServer();
  mcp = await serveHttp(api.url, '127.0.0.1', 0, 'test');
}, 60_000);

afterAll(async () => {
  await mcp?.close();
  await api?.close();
  await restoreMeshdx(saved, c);
});

/** One tool call as the caller whose token is given (none: no Authorization header). */
async function callAs(token: string | null, name: string, args: Record<string, unknown>) {
  const client = new Client({ name: 'meshdx-token-test', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(mcp.url), {
      requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : {},
    }),
  );
  try {
    return (await client.callTool({ name, arguments: args })) as CallToolResult;
  } finally {
    await client.close();
  }
}

/** What the dashboard itself answers `path` for `token`'s session: status and body. */
async function dashboardAnswer(token: string, path: string) {
  const signIn = await fetch(new URL('api/session', api.url), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  const cookie = /^([^;]+)/.exec(signIn.headers.get('set-cookie') ?? '')?.[1] ?? '';
  const res = await fetch(new URL(path.replace(/^\//, ''), api.url), { headers: { cookie } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('meshdx mcp in front of a token-mode dashboard', () => {
  it('a caller the cluster lets read the mesh gets the view, made with their own token', async () => {
    const r = await callAs(USERS.alice.token, 'open_link', { url: '/timelines' });
    expect(r.isError ?? false, JSON.stringify(r.content)).toBe(false);
    expect((r.structuredContent as { pods: number }).pods).toBeGreaterThan(0);
    // the API server saw alice's own requests, not meshdx's ServiceAccount acting for her
    const info = await c.info();
    expect(info.auth.users.alice?.['list pods']).toBeGreaterThanOrEqual(1);
  });

  it("a caller limited to one namespace is refused the cluster-wide view, in the dashboard's words", async () => {
    const r = await callAs(USERS.nina.token, 'open_link', { url: '/timelines' });
    expect(r.isError).toBe(true);
    const own = await dashboardAnswer(USERS.nina.token, '/api/timelines?limit=50&offset=0');
    expect(own.status).toBe(403);
    expect(r.structuredContent).toEqual({ status: 403, ...own.body });
    expect(JSON.stringify(r.structuredContent)).toContain('nina lacks:');
    // nor does another tool show her what alice sees
    const f = await callAs(USERS.nina.token, 'who_held_ip', { ip: '10.0.0.1', at: 'now' });
    expect(f.isError).toBe(true);
    expect(f.structuredContent).toMatchObject({ status: 403, error: { code: 'FORBIDDEN' } });
  });

  it('no token is the dashboard 401; a token the API server refuses is its sign-in refusal', async () => {
    const none = await callAs(null, 'findings', {});
    expect(none.structuredContent).toMatchObject({ status: 401, error: { code: 'NO_SESSION' } });
    const bad = await callAs('not-a-token-anyone-issued', 'findings', {});
    expect(bad.structuredContent).toMatchObject({ status: 401, error: { code: 'TOKEN_REFUSED' } });
    expect(JSON.stringify(bad)).not.toContain('not-a-token-anyone-issued');
  });
});
