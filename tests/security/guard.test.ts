import { describe, expect, it } from 'vitest';
import { loadSecurityConfig } from '../../server/security/config';
import {
  checkRequest,
  checkShape,
  configRefusal,
  isApiPath,
  refusalBody,
} from '../../server/security/guard';
import { buildCsp, newNonce, securityHeaders } from '../../server/security/headers';
import { isUploadMediaType, mediaType } from '../../server/security/media-type';

const allow = loadSecurityConfig({}).allowlist;
const get = (host: string | null, pathname = '/') => ({
  method: 'GET',
  pathname,
  host,
  origin: null,
});

describe('checkRequest', () => {
  it('answers loopback hosts and refuses others with 421 naming the setting', () => {
    expect(checkRequest(get('127.0.0.1:3000'), allow)).toBeNull();
    const r = checkRequest(get('evil.example:3000'), allow);
    expect(r).toMatchObject({ status: 421, code: 'HOST_NOT_ALLOWED' });
    expect(r?.message).toContain('"evil.example:3000"');
    expect(r?.hint).toContain('MESHDX_ALLOWED_HOSTS');
    expect(checkRequest(get(null), allow)?.message).toContain('(none)');
  });

  it('refuses a cross-site POST (403) but not a same-site one or a GET with a foreign Origin', () => {
    const post = (origin: string | null) => ({
      method: 'POST',
      pathname: '/api/incidents/upload',
      host: 'localhost:3000',
      origin,
    });
    expect(checkRequest(post(null), allow)).toBeNull();
    expect(checkRequest(post('http://localhost:3000'), allow)).toBeNull();
    expect(checkRequest(post('https://evil.example'), allow)).toMatchObject({
      status: 403,
      code: 'CROSS_ORIGIN_REFUSED',
    });
    expect(checkRequest({ ...get('localhost'), origin: 'https://evil.example' }, allow)).toBeNull();
  });

  it("takes meshdx's own form posts (Origin null under no-referrer) only when the browser says same-origin", () => {
    const form = (secFetchSite: string | null) => ({
      method: 'POST',
      pathname: '/api/session',
      host: 'localhost:3000',
      origin: 'null',
      secFetchSite,
    });
    expect(checkRequest(form('same-origin'), allow)).toBeNull();
    for (const site of ['cross-site', 'same-site', 'none', null])
      expect(checkRequest(form(site), allow), String(site)).toMatchObject({
        status: 403,
        code: 'CROSS_ORIGIN_REFUSED',
      });
  });

  it('the session routes take POST; logout takes nothing else', () => {
    expect(checkRequest({ ...get('localhost', '/api/session'), method: 'POST' }, allow)).toBeNull();
    expect(checkRequest(get('localhost', '/api/session/logout'), allow)).toMatchObject({
      status: 405,
      headers: { Allow: 'POST, OPTIONS' },
    });
  });
});

describe('refusalBody', () => {
  const r = checkRequest(get('evil.example'), allow);
  it('is {error:{code,message,hint}} JSON for the API', () => {
    if (!r) throw new Error('expected a refusal');
    const b = refusalBody(r, '/api/cluster');
    expect(b.contentType).toBe('application/json');
    expect(JSON.parse(b.body)).toEqual({
      error: { code: 'HOST_NOT_ALLOWED', message: r.message, hint: r.hint },
    });
  });
  it('is short plain text naming the setting for pages', () => {
    if (!r) throw new Error('expected a refusal');
    const b = refusalBody(r, '/proxies');
    expect(b.contentType).toMatch(/^text\/plain/);
    expect(b.body).toContain('MESHDX_ALLOWED_HOSTS');
  });
  it('says what is wrong when the settings are invalid', () => {
    const b = refusalBody(configRefusal('invalid MESHDX_ALLOWED_HOSTS: x'), '/api/x');
    expect(JSON.parse(b.body)).toMatchObject({ error: { code: 'INVALID_CONFIG' } });
  });
  it('knows API paths', () => {
    expect(isApiPath('/api')).toBe(true);
    expect(isApiPath('/api/health')).toBe(true);
    expect(isApiPath('/apiary')).toBe(false);
  });
});

describe('CSP and security headers', () => {
  it('scripts only by nonce (strict-dynamic), no unsafe-inline/eval for scripts in production', () => {
    const csp = buildCsp({ nonce: 'abc' });
    const scriptSrc = csp.split('; ').find((d) => d.startsWith('script-src '));
    expect(scriptSrc).toBe("script-src 'self' 'nonce-abc' 'strict-dynamic'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("style-src-attr 'unsafe-inline'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).not.toContain('upgrade-insecure-requests'); // port-forward is plain http
  });
  it('dev adds eval (React error overlay) and the HMR websocket', () => {
    const csp = buildCsp({ nonce: 'abc', dev: true });
    expect(csp).toContain("'unsafe-eval'");
    expect(csp).toContain("connect-src 'self' ws: wss:");
  });
  it('nonces are fresh and 128-bit base64', () => {
    const a = newNonce();
    expect(a).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(newNonce()).not.toBe(a);
  });
  it('every response carries the anti-framing, nosniff and referrer headers', () => {
    const h = new Map(securityHeaders('x'));
    expect(h.get('X-Frame-Options')).toBe('DENY');
    expect(h.get('X-Content-Type-Options')).toBe('nosniff');
    expect(h.get('Referrer-Policy')).toBe('no-referrer');
    expect(h.get('Content-Security-Policy')).toBe('x');
  });
});

describe('upload media types', () => {
  it('accepts text/plain with any charset and case', () => {
    expect(isUploadMediaType('text/plain')).toBe(true);
    expect(isUploadMediaType('text/plain; charset=utf-8')).toBe(true);
    expect(isUploadMediaType('Text/Plain;charset=UTF-8')).toBe(true);
  });
  it('refuses JSON, gzip, octet-stream, forms, garbage and a missing type', () => {
    for (const t of [
      'application/json',
      'application/gzip',
      'application/octet-stream',
      'multipart/form-data; boundary=x',
      'application/x-www-form-urlencoded',
      'text/plainx',
      'text/html',
      '',
      'garbage',
      null,
    ])
      expect(isUploadMediaType(t), String(t)).toBe(false);
    expect(mediaType('Application/JSON; charset=utf-8')).toBe('application/json');
  });
});

describe('requests meshdx cannot route as written', () => {
  it('answers malformed percent-encoding with a 400 naming the escape', () => {
    for (const path of ['/api/pods/ns/a%zz', '/api/pods/ns/%FF', '/timelines/%E2%82']) {
      const r = checkShape('GET', path);
      expect(r, path).toMatchObject({ status: 400, code: 'INVALID_REQUEST' });
      expect(r?.message).toContain('malformed percent-encoding');
    }
    expect(checkShape('GET', '/api/pods/ns/caf%C3%A9')).toBeNull();
  });

  it('answers methods a path does not take with 405 and Allow, TRACE included', () => {
    const trace = checkShape('TRACE', '/api/inventory');
    expect(trace).toMatchObject({ status: 405, code: 'METHOD_NOT_ALLOWED' });
    expect(trace?.headers).toEqual({ Allow: 'GET, HEAD, OPTIONS' });
    expect(checkShape('DELETE', '/')).toMatchObject({ status: 405 });
    expect(checkShape('GET', '/api/incidents/upload')?.headers).toEqual({ Allow: 'POST, OPTIONS' });
    expect(checkShape('POST', '/api/incidents/upload')).toBeNull();
    expect(checkShape('POST', '/api/findings')).toMatchObject({ status: 405 });
    expect(checkShape('HEAD', '/proxies')).toBeNull();
  });
});
