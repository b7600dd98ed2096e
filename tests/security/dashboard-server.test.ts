import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardDashboardServer } from '../../server/security/dashboard-server';

/**
 * What the dashboard's Node server answers before Next (and proxy.ts) see a request. The
 * handler here does what Next's request handler does first (base-server.ts, before any
 * middleware runs): a path with a doubled slash or a backslash is a 308 to its normalised form,
 * with no header of meshdx's; every other request is a 200 that names the Host and the identity
 * headers it was given, as a route would read them.
 */
let server: http.Server;
let port = 0;
const saved = { ...process.env };
const OWN_CSP = "default-src 'self'; script-src 'nonce-abc'";

beforeAll(async () => {
  process.env.MESHDX_ALLOWED_HOSTS = '';
  process.env.MESHDX_AUTH = 'header';
  delete process.env.MESHDX_AUTH_USER_HEADER;
  delete process.env.MESHDX_AUTH_GROUPS_HEADER;
  guardDashboardServer();
  server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0] ?? '/';
    if (/(\\|\/\/)/.test(path)) {
      const clean = path.replace(/\\/g, '/').replace(/\/\/+/g, '/');
      res.statusCode = 308;
      res.setHeader('Location', clean);
      res.end(clean);
      return;
    }
    if (path === '/own-csp') res.setHeader('Content-Security-Policy', OWN_CSP);
    res.end(
      JSON.stringify({
        host: req.headers.host,
        user: req.headers['x-forwarded-user'],
        groups: req.headers['x-forwarded-groups'],
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  process.env = { ...saved };
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

interface Answer {
  status: number;
  headers: Map<string, string[]>;
  body: string;
}

/** Sends a raw request head (as written, duplicate headers and odd paths included). */
function raw(head: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(head));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (text += d));
    socket.on('close', () => {
      const [top = '', body = ''] = text.split('\r\n\r\n');
      const [status = '', ...lines] = top.split('\r\n');
      const headers = new Map<string, string[]>();
      for (const l of lines) {
        const i = l.indexOf(':');
        const name = l.slice(0, i).trim().toLowerCase();
        headers.set(name, [...(headers.get(name) ?? []), l.slice(i + 1).trim()]);
      }
      resolve({ status: Number(status.split(' ')[1]), headers, body });
    });
    socket.on('error', reject);
    socket.setTimeout(5000, () => socket.destroy());
  });
}

const get = (path: string, headers: string[]) =>
  raw(`GET ${path} HTTP/1.1\r\n${headers.join('\r\n')}\r\nConnection: close\r\n\r\n`);

function expectSecurityHeaders(a: Answer, what: string) {
  expect(a.headers.get('content-security-policy')?.[0], what).toContain("frame-ancestors 'none'");
  expect(a.headers.get('x-frame-options'), what).toEqual(['DENY']);
  expect(a.headers.get('x-content-type-options'), what).toEqual(['nosniff']);
}

const NORMALISED = ['//timelines', '/api//cluster', '/.//evil.example/', '/\\evil.example/'];

describe("paths Next normalises before meshdx's proxy runs", () => {
  it('a foreign Host is a 421 on them too, with the security headers', async () => {
    for (const path of NORMALISED) {
      const a = await get(path, ['Host: evil.example']);
      expect(a.status, path).toBe(421);
      expect(a.body, path).toMatch(/does not answer to the host name \\?"evil\.example\\?"/);
      expectSecurityHeaders(a, path);
    }
  });

  it("an allowed Host gets Next's 308 with the security headers", async () => {
    for (const path of NORMALISED) {
      const a = await get(path, ['Host: localhost:3000']);
      expect(a.status, path).toBe(308);
      expect(a.headers.get('location')?.[0], path).not.toContain('//');
      expectSecurityHeaders(a, path);
    }
  });

  it('every answer gets them; one that has them (the CSP proxy.ts sets) keeps its own', async () => {
    const a = await get('/', ['Host: localhost']);
    expect(a.status).toBe(200);
    expectSecurityHeaders(a, '/');
    const own = await get('/own-csp', ['Host: localhost']);
    expect(own.headers.get('content-security-policy')).toEqual([OWN_CSP]);
    expect(own.headers.get('x-frame-options')).toEqual(['DENY']);
  });
});

describe("Node's own answer", () => {
  it('to a request it cannot parse is its 400, with the security headers', async () => {
    const a = await raw('GET / HTTP/1.1\r\nHost: localhost\r\nno colon here\r\n\r\n');
    expect(a.status).toBe(400);
    expectSecurityHeaders(a, 'malformed head');
  });
});

describe('headers a request must carry once', () => {
  it('two Host headers are a 400 naming Host, whichever comes first', async () => {
    for (const hosts of [
      ['Host: localhost', 'Host: evil.example'],
      ['Host: evil.example', 'Host: localhost'],
      ['Host: localhost', 'host: localhost'],
    ]) {
      const a = await get('/api/cluster', [...hosts, 'X-Forwarded-User: nina']);
      expect(a.status, hosts.join(' ')).toBe(400);
      expect(a.body).toContain('"code":"INVALID_REQUEST"');
      expect(a.body).toContain('Host');
      expectSecurityHeaders(a, hosts.join(' '));
    }
  });

  it('in header mode, two X-Forwarded-User headers are a 400 naming the header, never "nina, alice"', async () => {
    const a = await get('/api/cluster', [
      'Host: localhost',
      'X-Forwarded-User: nina',
      'X-Forwarded-User: alice',
    ]);
    expect(a.status).toBe(400);
    expect(a.body).toContain('"code":"AMBIGUOUS_PROXY_IDENTITY"');
    expect(a.body).toContain('X-Forwarded-User');
    expect(a.body).not.toContain('nina, alice');
  });

  it('in header mode, a second X-Forwarded-Groups (the client sent one too) is a 400 naming it', async () => {
    const a = await get('/', [
      'Host: localhost',
      'X-Forwarded-User: nina',
      'X-Forwarded-Groups: system:masters',
      'X-Forwarded-Groups: team-shop',
    ]);
    expect(a.status).toBe(400);
    expect(a.body).toContain('X-Forwarded-Groups');
  });

  it('one of each reaches the handler as sent', async () => {
    const a = await get('/api/cluster', [
      'Host: localhost',
      'X-Forwarded-User: nina',
      'X-Forwarded-Groups: team-shop, oncall',
    ]);
    expect(a.status).toBe(200);
    expect(JSON.parse(a.body)).toEqual({
      host: 'localhost',
      user: 'nina',
      groups: 'team-shop, oncall',
    });
  });
});
