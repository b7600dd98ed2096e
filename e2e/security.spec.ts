import { expect, test } from '@playwright/test';
import http from 'node:http';
import { base, PORTS, watchContentSecurityPolicy } from './support';

/**
 * "Safe to leave running in a cluster": the dashboard answers only to its own host names (DNS
 * rebinding), sends its security headers everywhere, keeps to its nonce CSP on every view, and
 * takes uploads as text only.
 */
const demo = base(PORTS.demo);

/** A raw GET with a Host header of our choosing (fetch would send the URL's host). */
function getWithHost(
  path: string,
  host: string,
): Promise<{ status: number; type: string; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: PORTS.demo, path, method: 'GET', headers: { Host: host } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            type: String(res.headers['content-type'] ?? ''),
            body,
            headers: res.headers,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

test('a foreign Host is refused with a reason naming the setting; loopback names are served', async () => {
  const api = await getWithHost('/api/cluster', `evil.example:${PORTS.demo}`);
  expect(api.status).toBe(421);
  expect(api.type).toContain('application/json');
  const err = JSON.parse(api.body) as { error: { code: string; message: string; hint: string } };
  expect(err.error.code).toBe('HOST_NOT_ALLOWED');
  expect(err.error.hint).toContain('MESHDX_ALLOWED_HOSTS');

  const page = await getWithHost('/proxies', 'evil.example');
  expect(page.status).toBe(421);
  expect(page.type).toContain('text/plain');
  expect(page.body).toContain('MESHDX_ALLOWED_HOSTS');

  for (const host of ['localhost', '127.0.0.1', '[::1]', 'LOCALHOST.'].map(
    (h) => `${h}:${PORTS.demo}`,
  ))
    expect((await getWithHost('/api/cluster', host)).status, host).toBe(200);
});

test('a path that would redirect is a 421 for a foreign Host; redirects and errors carry the headers', async () => {
  const headersOf = (r: { headers: http.IncomingHttpHeaders }, what: string) => {
    expect(r.headers['x-frame-options'], what).toBe('DENY');
    expect(r.headers['x-content-type-options'], what).toBe('nosniff');
    expect(String(r.headers['content-security-policy'] ?? ''), what).toContain(
      "frame-ancestors 'none'",
    );
  };
  const odd = ['/timelines/', '/proxies/?namespace=shop', '/api/pods/shop/%2e%2e', '/api/nope'];
  for (const p of odd) {
    const r = await getWithHost(p, 'evil.example');
    expect(r.status, p).toBe(421);
    expect(r.headers.location, p).toBeUndefined();
    headersOf(r, `${p} (foreign Host)`);
  }
  const own = `localhost:${PORTS.demo}`;
  const slash = await getWithHost('/timelines/', own);
  expect(slash.status).toBe(308);
  expect(slash.headers.location).toMatch(/\/timelines$/);
  headersOf(slash, 'trailing-slash redirect');
  for (const p of ['/api/pods/shop/%2e%2e', '/api/nope']) {
    const r = await getWithHost(p, own);
    expect([400, 404], p).toContain(r.status);
    expect(r.type, p).toContain('application/json');
    expect(r.headers.location, p).toBeUndefined();
    headersOf(r, p);
  }
});

const SECURITY_HEADERS = {
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

function expectSecurityHeaders(res: Response, what: string) {
  for (const [name, value] of Object.entries(SECURITY_HEADERS))
    expect(res.headers.get(name), `${what}: ${name}`).toBe(value);
  const csp = res.headers.get('content-security-policy') ?? '';
  expect(csp, `${what}: CSP`).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
  expect(csp, `${what}: CSP`).toContain("frame-ancestors 'none'");
  expect(csp, `${what}: CSP`).not.toContain('unsafe-eval');
}

test('security headers are on a page, an API route and a static asset', async () => {
  const page = await fetch(`${demo}/proxies`);
  expect(page.status).toBe(200);
  expectSecurityHeaders(page, 'page');
  const html = await page.text();
  // every script tag carries this response's nonce
  const nonce = /'nonce-([^']+)'/.exec(page.headers.get('content-security-policy') ?? '')?.[1];
  const scripts = html.match(/<script\b[^>]*>/g) ?? [];
  expect(scripts.length).toBeGreaterThan(0);
  for (const s of scripts) expect(s).toContain(`nonce="${nonce}"`);

  const api = await fetch(`${demo}/api/cluster`);
  expect(api.status).toBe(200);
  expectSecurityHeaders(api, 'API');

  const asset = /\/_next\/static\/[^"']+\.js/.exec(html)?.[0];
  expect(asset, 'a static script in the page').toBeTruthy();
  const js = await fetch(`${demo}${asset}`);
  expect(js.status).toBe(200);
  expectSecurityHeaders(js, 'static asset');
});

// Every view's first render is checked for CSP violations by a11y.spec.ts, which visits each
// view once for axe; here, the chunks a client-side navigation loads.
test('a client-side navigation loads its chunks with no Content-Security-Policy violation', async ({
  page,
}) => {
  const violations = await watchContentSecurityPolicy(page);
  await page.goto(`${demo}/`);
  await expect(page.getByTestId('loading')).toHaveCount(0);
  // a client-side navigation loads further chunks through 'strict-dynamic'
  await page.locator('header a[href^="/proxies"]').first().click();
  await expect(page).toHaveURL(/\/proxies/);
  await expect(page.locator('h1').first()).toContainText('Proxies');
  await expect(page.getByTestId('loading')).toHaveCount(0);
  expect(violations).toEqual([]);
});

test('the upload takes text/plain only: JSON is 415, a cross-site POST is 403', async () => {
  const json = await fetch(`${demo}/api/incidents/upload`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ log: 'x' }),
  });
  expect(json.status).toBe(415);
  expect(((await json.json()) as { error: { code: string } }).error.code).toBe(
    'UNSUPPORTED_MEDIA_TYPE',
  );
  expectSecurityHeaders(json, 'upload 415');

  const text = await fetch(`${demo}/api/incidents/upload`, {
    method: 'POST',
    headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    body: '[2026-11-01T12:00:31.003Z] "GET /x HTTP/1.1" 503 UC\n',
  });
  expect(text.status).toBe(200);

  const crossSite = await fetch(`${demo}/api/incidents/upload`, {
    method: 'POST',
    headers: { 'Content-Type': 'text/plain', Origin: 'https://evil.example' },
    body: 'x',
  });
  expect(crossSite.status).toBe(403);
  expect(((await crossSite.json()) as { error: { code: string } }).error.code).toBe(
    'CROSS_ORIGIN_REFUSED',
  );
});
