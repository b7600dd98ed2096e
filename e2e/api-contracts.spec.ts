import http from 'node:http';
import { expect, test } from '@playwright/test';
import type { z } from 'zod';
import { ClusterInfoSchema, ContextsSchema } from '../lib/api/cluster';
import { ApiErrorSchema } from '../lib/api/errors';
import { FindingsReportSchema } from '../lib/api/findings';
import { IncidentsViewSchema } from '../lib/api/incidents';
import { InventorySchema, PodDetailSchema, PodListSchema } from '../lib/api/inventory';
import { FleetViewSchema, ProxyDetailSchema } from '../lib/api/proxies';
import { ScopingViewSchema } from '../lib/api/scoping-view';
import { PodTimelineViewSchema, TimelinePagedFleetSchema } from '../lib/api/timelines';
import { base, PORTS, simUrl } from './support';
import { podPath } from '../lib/refs/pod-ref';

const demo = base(PORTS.demo);

async function json(path: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${demo}${path}`);
  return { status: res.status, body: await res.json() };
}

/** The answer of an API route, parsed with the schema the browser parses it with. */
async function contract(path: string, schema: z.ZodType): Promise<void> {
  const r = await json(path);
  expect(r.status, `${path}: ${JSON.stringify(r.body).slice(0, 300)}`).toBe(200);
  const parsed = schema.safeParse(r.body);
  expect(parsed.success, `${path}: ${parsed.error?.message.slice(0, 600)}`).toBe(true);
}

/** A raw request (fetch refuses TRACE and normalises nothing else we need). */
function raw(
  method: string,
  path: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const url = new URL(demo);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method, path }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function aPod(): Promise<{ ns: string; name: string }> {
  const pods = (await (await fetch(`${simUrl()}/api/v1/namespaces/shop/pods`)).json()) as {
    items: { metadata: { name: string } }[];
  };
  const name = pods.items.map((p) => p.metadata.name).sort()[0];
  if (!name) throw new Error('no pod in shop');
  return { ns: 'shop', name };
}

test.describe.configure({ mode: 'serial' });

test('every API route answers what the browser parses, on the demo', async () => {
  test.setTimeout(180_000);
  const { ns, name } = await aPod();
  await contract('/api/cluster', ClusterInfoSchema);
  await contract('/api/contexts', ContextsSchema);
  await contract('/api/inventory', InventorySchema);
  expect((await json('/api/inventory')).body).not.toHaveProperty('pods');
  await contract('/api/pods?meshed=1&namespace=shop', PodListSchema);
  const bad = await json('/api/pods?ip=10.1.2');
  expect(bad.status).toBe(400);
  expect(JSON.stringify(bad.body)).toMatch(/ip: .*10\.1\.2.* is not an IPv4 or IPv6 address/);
  await contract('/api/timelines', TimelinePagedFleetSchema);
  await contract(`/api/timelines/${podPath({ namespace: ns, name })}`, PodTimelineViewSchema);
  await contract('/api/proxies/fleet', FleetViewSchema);
  await contract(`/api/proxies/${podPath({ namespace: ns, name })}`, ProxyDetailSchema);
  await contract('/api/scoping', ScopingViewSchema);
  await contract('/api/incidents?namespace=shop', IncidentsViewSchema);
  await contract('/api/findings', FindingsReportSchema);
  await contract(`/api/pods/${podPath({ namespace: ns, name })}`, PodDetailSchema);
});

test('errors answer with their true status and a {code,message,hint} body', async () => {
  // malformed percent-encoding is the request's fault: 400, naming the escape
  for (const path of ['/api/pods/shop/a%zz', '/api/pods/shop/%FF']) {
    const r = await raw('GET', path);
    expect(r.status, path).toBe(400);
    const body = ApiErrorSchema.parse(JSON.parse(r.body));
    expect(body.error.message).toContain('percent-encoding');
  }
  // TRACE and other methods a route does not take: 405 with Allow, no stack in the answer
  const trace = await raw('TRACE', '/api/inventory');
  expect(trace.status).toBe(405);
  expect(trace.headers.allow).toBe('GET, HEAD, OPTIONS');
  expect(ApiErrorSchema.parse(JSON.parse(trace.body)).error.code).toBe('METHOD_NOT_ALLOWED');
  const post = await raw('POST', '/api/findings');
  expect(post.status).toBe(405);
  expect(post.headers.allow).toBe('GET, HEAD, OPTIONS');
  const options = await raw('OPTIONS', '/api/incidents/upload');
  expect(options.headers.allow).toBe('POST, OPTIONS');
  // the proxy of a pod that does not exist: 404 naming it, never [object Object]
  const missing = await json('/api/proxies/shop/no-such-pod-0');
  expect(missing.status).toBe(404);
  const err = ApiErrorSchema.parse(missing.body);
  expect(err.error.message).toBe('pod shop/no-such-pod-0 does not exist');
  const dump = await json('/api/proxies/shop/no-such-pod-0/config_dump');
  expect(dump.status).toBe(404);
  expect(JSON.stringify(dump.body)).not.toContain('[object Object]');
  // a context name no kubeconfig can hold is the request's fault
  const badContext = await json('/api/cluster?context=%20');
  expect(badContext.status).toBe(400);
});
