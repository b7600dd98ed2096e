/**
 * `meshdx mcp` against the dashboard's own routes on the phantom-503 simulator: the SDK's real
 * Client lists the tools and calls each (in memory, over streamable HTTP, and over stdio to the
 * real command line); every answer equals what the same question asked of the API gives, picked
 * by the same reading, and every bad argument is the API's own refusal, passed through.
 */
import path from 'node:path';
import fs from 'node:fs';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { IncidentsViewSchema, type IncidentsView } from '../../lib/api/incidents';
import { PodListSchema } from '../../lib/api/inventory';
import { PodTimelineViewSchema } from '../../lib/api/timelines';
import { FindingsReportSchema } from '../../lib/api/findings';
import { FleetViewSchema } from '../../lib/api/proxies';
import { ScopingViewSchema } from '../../lib/api/scoping-view';
import type { Pod } from '../../lib/kube/types';
import { podKey } from '../../lib/refs/pod-ref';
import { runningRuntimes } from '../../server/runtime/registry';
import { dashboardAs, DashboardSessions } from '../../cli/mcp/dashboard';
import { meshdxMcpServer, serveHttp, type McpHttpServer } from '../../cli/mcp/serve';
import { MCP_TOOL_NAMES } from '../../cli/mcp/register';
import {
  dashboardLink,
  findingsAnswer,
  ipHolderAnswer,
  podPageLink,
  podStartupAnswer,
  unscopedAnswer,
} from '../../cli/mcp/answers';
import { runtimeOnSimulator, type SimRuntime } from '../../test-support/sim-runtime';
import { startRouteServer, type RouteServer } from '../../test-support/route-server';
import { COMPLETENESS_ENV, GATHER_GUARD_MS } from '../../test-support/deadlines';

const START = new Date('2026-11-01T12:00:00Z');
const FROM = new Date(START.getTime() - 10 * 60_000).toISOString();
const TO = new Date(START.getTime() + 40_000).toISOString();
const root = path.resolve(import.meta.dirname, '..', '..');
const cache = path.join(root, 'node_modules', '.cache', `meshdx-cli-mcp-${process.pid}`);

let on: SimRuntime;
let api: RouteServer;
let client: Client;
let http: McpHttpServer;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function apiGet(p: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(new URL(p.replace(/^\//, ''), api.url));
  return { status: res.status, body: await res.json() };
}

async function call(c: Client, name: string, args: Record<string, unknown>) {
  return (await c.callTool({ name, arguments: args })) as CallToolResult;
}

/** A refusal as the API gave it: its status and its error body, nothing else. */
async function apiRefusal(p: string) {
  const r = await apiGet(p);
  expect(r.status).toBeGreaterThanOrEqual(400);
  return { status: r.status, ...(r.body as object) };
}

/** An answer without the time its report was made (two reports of the same state differ only there). */
function stable(x: unknown): unknown {
  const { generatedAt: _, ...rest } = x as Record<string, unknown>;
  return JSON.parse(JSON.stringify(rest));
}

let holdersView: IncidentsView;
let ip: string;

beforeAll(async () => {
  on = await runtimeOnSimulator({
    scenario: 'phantom-503',
    clock: { fixed: START },
    env: { MESHDX_CLOCK: 'objects', ...COMPLETENESS_ENV },
  });
  api = await startRouteServer();
  // the first view starts the runtime; the story's payments rollout (20 s in) fails requests
  await apiGet(`/api/incidents?namespace=shop&from=${FROM}&to=${TO}`);
  const [rt] = runningRuntimes();
  if (!rt) throw new Error('the route started no runtime');
  await rt.recorder.ready;
  for (let t = 0; t < 45_000; t += 1000) {
    on.sim.clock.advance(1000);
    await sleep(10);
  }
  const all = IncidentsViewSchema.parse(
    (await apiGet(`/api/incidents?namespace=shop&from=${FROM}&to=${TO}`)).body,
  );
  const first = all.pods.find((p) => p.pod !== null && p.upstreamIps.length > 0);
  if (!first) throw new Error('the phantom-503 story failed no request to a known pod');
  ip = first.upstreamIps[0] ?? '';
  holdersView = IncidentsViewSchema.parse(
    (await apiGet(`/api/incidents?from=${FROM}&ip=${ip}&to=${TO}`)).body,
  );
  // Findings fills in as its analyses finish: the tests compare complete reports
  const end = Date.now() + GATHER_GUARD_MS;
  while (FindingsReportSchema.parse((await apiGet('/api/findings')).body).late?.length) {
    if (Date.now() > end) throw new Error('the findings report never completed');
    await sleep(200);
  }
  const [a, b] = InMemoryTransport.createLinkedPair();
  const server = meshdxMcpServer(
    dashboardAs(api.url, null, new DashboardSessions(api.url)),
    'test',
  );
  await server.connect(b);
  client = new Client({ name: 'meshdx-test', version: '1' });
  await client.connect(a);
  http = await serveHttp(api.url, '127.0.0.1', 0, 'test');
}, GATHER_GUARD_MS);

afterAll(async () => {
  await client?.close();
  await http?.close();
  await api?.close();
  await on?.close();
  fs.rmSync(cache, { recursive: true, force: true });
});

describe('meshdx mcp: the tools over the dashboard API', () => {
  it('lists the five tools, each read-only with an input schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...MCP_TOOL_NAMES].sort());
    for (const t of tools) {
      expect(t.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      expect(t.inputSchema.type).toBe('object');
    }
  });

  it('who_held_ip: the pods that held the IP, who kept sending, as Incidents answers ?ip=', async () => {
    const r = await call(client, 'who_held_ip', { ip, from: FROM, to: TO });
    expect(r.isError ?? false, JSON.stringify(r.content)).toBe(false);
    // the same question of the API, asked next (the layer sampler started by the first view
    // words its sentences the same from then on)
    const [view, now] = await Promise.all([
      apiGet(`/api/incidents?from=${FROM}&ip=${ip}&to=${TO}`).then((x) =>
        IncidentsViewSchema.parse(x.body),
      ),
      apiGet(`/api/pods?ip=${ip}`).then((x) => PodListSchema.parse(x.body)),
    ]);
    const link = dashboardLink(api.url, '/incidents', { ip, from: FROM, to: TO }, null);
    // the layers are sampled live (every 2 s): which pairs they cover is the same, their
    // sentences may have moved on between the two answers
    const want = stable(ipHolderAnswer(ip, view, now, link)) as ReturnType<typeof ipHolderAnswer>;
    const got = stable(r.structuredContent) as ReturnType<typeof ipHolderAnswer>;
    expect({ ...got, layers: undefined }).toEqual({ ...want, layers: undefined });
    expect(got.layers.map((l) => [l.client, l.pod])).toEqual(
      want.layers.map((l) => [l.client, l.pod]),
    );
    const holders = (r.structuredContent as ReturnType<typeof ipHolderAnswer>).holders;
    // the phantom: a payments pod being deleted, still sent to by the checkout proxies
    expect(holders.length).toBeGreaterThan(0);
    expect(holders[0]?.pod).toMatch(/^shop\/payments-/);
    expect(holders[0]?.state).not.toBe('live');
    expect(holders[0]?.clients.length).toBeGreaterThan(0);
    expect(new URL(link).pathname).toBe('/incidents');
    expect(new URL(link).searchParams.get('ip')).toBe(ip);
    // `at` is 5 minutes each side of the moment
    const at = await call(client, 'who_held_ip', { ip, at: START.toISOString() });
    const atLink = new URL((at.structuredContent as { link: string }).link);
    expect(atLink.searchParams.get('from')).toBe('2026-11-01T11:55:00.000Z');
    expect(atLink.searchParams.get('to')).toBe('2026-11-01T12:05:00.000Z');
  });

  it('who_held_ip: a bad IP or time is the API refusal as the API words it', async () => {
    const bad = await call(client, 'who_held_ip', { ip: 'ten.0.0.1', from: FROM, to: TO });
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent).toEqual(
      await apiRefusal(`/api/incidents?from=${FROM}&ip=ten.0.0.1&to=${TO}`),
    );
    const badFrom = await call(client, 'who_held_ip', { ip, from: 'yesterday' });
    expect(badFrom.structuredContent).toEqual(
      await apiRefusal(`/api/incidents?from=yesterday&ip=${ip}`),
    );
    const badAt = await call(client, 'who_held_ip', { ip, at: 'yesterday' });
    expect(badAt.isError).toBe(true);
    expect(badAt.structuredContent).toMatchObject({
      status: 400,
      error: { code: 'INVALID_PARAMETER', message: expect.stringMatching(/^at: /) as string },
    });
    expect(JSON.stringify(badAt.content)).not.toMatch(/\n\s+at /);
  });

  it('pod_startup: the pod timeline as Timelines reads it, with its Timelines and pod links', async () => {
    const pod = (on.sim.store.list('pods') as Pod[]).find(
      (p) => p.metadata.namespace === 'shop' && p.metadata.name.startsWith('checkout-'),
    );
    if (!pod) throw new Error('no checkout pod');
    const name = pod.metadata.name;
    const r = await call(client, 'pod_startup', { namespace: 'shop', name });
    expect(r.isError ?? false, JSON.stringify(r.content)).toBe(false);
    const view = PodTimelineViewSchema.parse((await apiGet(`/api/timelines/shop/${name}`)).body);
    const timeline = dashboardLink(
      api.url,
      '/timelines',
      { namespace: 'shop', pod: podKey('shop', name) },
      null,
    );
    const podLink = podPageLink(api.url, { namespace: 'shop', name }, null);
    expect(r.structuredContent).toEqual(
      JSON.parse(JSON.stringify(podStartupAnswer(view, { timeline, pod: podLink }))),
    );
    expect(podLink).toBe(`${api.url}pods/shop/${name}`);
    const bad = await call(client, 'pod_startup', { namespace: 'Shop', name });
    expect(bad.structuredContent).toEqual(await apiRefusal(`/api/timelines/Shop/${name}`));
  });

  it(
    'unscoped_proxies: Proxies’ unscoped namespaces and the Sidecars Scoping proposes',
    async () => {
      const r = await call(client, 'unscoped_proxies', { namespace: 'shop' });
      expect(r.isError ?? false, JSON.stringify(r.content)).toBe(false);
      const fleet = FleetViewSchema.parse((await apiGet('/api/proxies/fleet?namespace=shop')).body);
      const scoping = ScopingViewSchema.parse((await apiGet('/api/scoping')).body);
      const want = unscopedAnswer(fleet, scoping, 'shop', {
        proxies: dashboardLink(api.url, '/proxies', { namespace: 'shop' }, null),
        scoping: dashboardLink(api.url, '/scoping', { namespace: 'shop' }, null),
      });
      const got = r.structuredContent as typeof want;
      expect(got.totals).toEqual(want.totals);
      expect(got.namespaces).toEqual(want.namespaces);
      expect(got.sidecars.map((s) => [s.namespace, s.name, s.yaml])).toEqual(
        want.sidecars.map((s) => [s.namespace, s.name, s.yaml]),
      );
      expect(got.totals.unscopedProxies).toBeGreaterThan(0);
      expect(got.sidecars.length).toBeGreaterThan(0);
      const bad = await call(client, 'unscoped_proxies', { namespace: 'no-such-ns' });
      expect(bad.structuredContent).toEqual(
        await apiRefusal('/api/proxies/fleet?namespace=no-such-ns'),
      );
    },
    GATHER_GUARD_MS,
  );

  it('findings: what the Findings view shows for a namespace; a namespace not there is the 404', async () => {
    const r = await call(client, 'findings', { namespace: 'shop' });
    expect(r.isError ?? false, JSON.stringify(r.content)).toBe(false);
    const report = FindingsReportSchema.parse((await apiGet('/api/findings')).body);
    const want = findingsAnswer(
      report,
      { namespace: 'shop' },
      dashboardLink(api.url, '/findings', { namespace: 'shop' }, null),
    );
    expect(stable(r.structuredContent)).toEqual(stable(want));
    expect(want.findings.length).toBeGreaterThan(0);
    expect(
      want.findings.every((f) => f.subject.namespace === 'shop' || f.subject.name === 'shop'),
    ).toBe(true);
    const gone = await call(client, 'findings', { namespace: 'no-such-ns' });
    expect(gone.structuredContent).toEqual(
      await apiRefusal('/api/pods?limit=1&namespace=no-such-ns'),
    );
    const sev = await call(client, 'findings', { severity: 'fatal' });
    expect(sev.structuredContent).toMatchObject({
      status: 400,
      error: { code: 'INVALID_PARAMETER', message: expect.stringMatching(/^severity: /) as string },
    });
  });

  it('open_link: a pasted link answers what its view says; another path is named', async () => {
    const incidents = `https://meshdx.example.com/incidents?ip=${ip}&from=${FROM}&to=${TO}`;
    const r = await call(client, 'open_link', { url: incidents });
    expect(r.isError ?? false, JSON.stringify(r.content)).toBe(false);
    const got = r.structuredContent as {
      pods: { pod: string | null }[];
      requests: { shown: number };
    };
    expect(got.pods.map((p) => p.pod)).toEqual(
      holdersView.pods.map((p) => (p.pod ? podKey(p.pod.namespace, p.pod.name) : null)),
    );
    expect(got.requests.shown).toBe(holdersView.totals.shown);
    const findings = await call(client, 'open_link', { url: '/findings?namespace=shop' });
    expect(stable(findings.structuredContent)).toEqual(
      stable((await call(client, 'findings', { namespace: 'shop' })).structuredContent),
    );
    const bad = await call(client, 'open_link', { url: `/incidents?ip=${ip}&bogus=1` });
    expect(bad.structuredContent).toEqual(await apiRefusal(`/api/incidents?ip=${ip}&bogus=1`));
    const other = await call(client, 'open_link', { url: '/settings' });
    expect(other.structuredContent).toMatchObject({ status: 404, error: { code: 'UNKNOWN_VIEW' } });
  });

  it('streamable HTTP answers the same as in memory', async () => {
    const c = new Client({ name: 'meshdx-http-test', version: '1' });
    await c.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    try {
      expect((await c.listTools()).tools.map((t) => t.name).sort()).toEqual(
        [...MCP_TOOL_NAMES].sort(),
      );
      const [over, mem] = await Promise.all([
        call(c, 'findings', { namespace: 'shop' }),
        call(client, 'findings', { namespace: 'shop' }),
      ]);
      expect(stable(over.structuredContent)).toEqual(stable(mem.structuredContent));
    } finally {
      await c.close();
    }
    // a page of another site cannot reach it through a rebound name
    const foreign = await new Promise<number>((resolve, reject) => {
      const u = new URL(http.url);
      const req = request(
        {
          host: u.hostname,
          port: u.port,
          path: u.pathname,
          method: 'POST',
          headers: { Host: 'evil.example', 'Content-Type': 'application/json' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end('{}');
    });
    expect(foreign).toBe(421);
  });

  it(
    'the real command line on stdio answers the same',
    async () => {
      const c = new Client({ name: 'meshdx-stdio-test', version: '1' });
      await c.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [path.join(root, 'bin', 'meshdx.mjs'), 'mcp', '--url', api.url],
          env: { ...(process.env as Record<string, string>), MESHDX_CLI_CACHE: cache },
          stderr: 'pipe',
        }),
      );
      try {
        expect((await c.listTools()).tools.map((t) => t.name).sort()).toEqual(
          [...MCP_TOOL_NAMES].sort(),
        );
        const [over, mem] = await Promise.all([
          call(c, 'who_held_ip', { ip, from: FROM, to: TO }),
          call(client, 'who_held_ip', { ip, from: FROM, to: TO }),
        ]);
        const layerless = (x: unknown) => ({ ...(stable(x) as object), layers: undefined });
        expect(layerless(over.structuredContent)).toEqual(layerless(mem.structuredContent));
      } finally {
        await c.close();
      }
    },
    GATHER_GUARD_MS,
  );
});
