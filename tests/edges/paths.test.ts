import fs from 'node:fs';
import path from 'node:path';
import { NextRequest } from 'next/server';
import { describe, expect, it } from 'vitest';
import { proxy } from '../../proxy';
import { API_ROUTES, apiPathProblem } from '../../server/security/api-routes';
import nextConfig from '../../next.config';

/**
 * Paths at the edge, through proxy.ts (Next's middleware, which runs before every route and page
 * once next.config.ts turns Next's own trailing-slash redirect off): unknown and odd /api paths
 * are JSON errors, never redirects; every answer, redirects included, passed the Host check and
 * carries the security headers.
 */
const ROOT = path.resolve(import.meta.dirname, '..', '..');

function routesOnDisk(dir = path.join(ROOT, 'app', 'api'), prefix = '/api'): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!e.isDirectory() || e.name.startsWith('_')) continue;
    const sub = path.join(dir, e.name);
    if (fs.existsSync(path.join(sub, 'route.ts'))) out.push(`${prefix}/${e.name}`);
    out.push(...routesOnDisk(sub, `${prefix}/${e.name}`));
  }
  return out.sort();
}

const get = (p: string, host = 'localhost:3000', method = 'GET') =>
  proxy(new NextRequest(`http://${host}${p}`, { method, headers: { host } }));

async function errorOf(res: Response): Promise<{ code: string; message: string }> {
  expect(res.headers.get('content-type')).toContain('application/json');
  return ((await res.json()) as { error: { code: string; message: string } }).error;
}

describe('API paths', () => {
  it('the route list is the one app/api holds', () => {
    expect([...API_ROUTES].sort()).toEqual(routesOnDisk());
  });

  it("Next's trailing-slash redirect is off, so proxy.ts sees every path first", () => {
    expect(nextConfig.skipTrailingSlashRedirect).toBe(true);
  });

  it('an unknown /api path is a JSON 404 naming it', async () => {
    for (const p of ['/api', '/api/nope', '/api/pods/shop', '/api/pods/shop/web-0/extra']) {
      const res = get(p);
      expect(res.status, p).toBe(404);
      const e = await errorOf(res);
      expect(e.code).toBe('NOT_FOUND');
      expect(e.message).toContain(p);
    }
  });

  it('dot segments and trailing slashes on /api are JSON errors, never redirects', async () => {
    for (const kind of ['pods', 'proxies', 'timelines', 'ztunnels']) {
      const res = get(`/api/${kind}/shop/%2e%2e`);
      expect([400, 404], kind).toContain(res.status);
      expect(res.headers.get('location')).toBeNull();
      await errorOf(res);
    }
    expect(apiPathProblem('/api/pods/shop/..')?.status).toBe(400);
    expect(apiPathProblem('/api/pods/shop/%2E%2e')?.status).toBe(400);
    const slash = get('/api/cluster/');
    expect(slash.status).toBe(404);
    expect((await errorOf(slash)).message).toContain('trailing slash');
  });

  it('served /api paths pass to their routes', () => {
    for (const p of ['/api/cluster', '/api/pods/shop/web-0', '/api/proxies/shop/web-0/config_dump'])
      expect(get(p).headers.get('x-middleware-next'), p).toBe('1');
  });
});

describe('redirects and errors pass the Host check and carry the security headers', () => {
  it('a page with a trailing slash and a foreign Host is a 421, not a redirect', () => {
    const res = get('/timelines/', 'evil.example');
    expect(res.status).toBe(421);
    expect(res.headers.get('location')).toBeNull();
  });

  it('a page with a trailing slash is redirected by meshdx, with its headers', () => {
    const res = get('/timelines/?namespace=shop');
    expect(res.status).toBe(308);
    expect(res.headers.get('location')).toBe('http://localhost:3000/timelines?namespace=shop');
    for (const res2 of [res, get('/api/nope'), get('/api/cluster', 'evil.example')]) {
      expect(res2.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res2.headers.get('x-frame-options')).toBe('DENY');
      expect(res2.headers.get('content-security-policy')).toContain("default-src 'self'");
    }
  });
});
