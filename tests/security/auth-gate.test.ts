import { describe, expect, it } from 'vitest';
import type { AuthSettings } from '../../server/auth/identity';
import { authGate } from '../../server/security/auth-gate';
import { loadEnv } from '../../server/env';

const settings = (mode: AuthSettings['MESHDX_AUTH']): AuthSettings => ({
  MESHDX_AUTH: mode,
  MESHDX_AUTH_USER_HEADER: 'X-Forwarded-User',
  MESHDX_AUTH_GROUPS_HEADER: 'X-Forwarded-Groups',
});
const at = (pathname: string, headers: Record<string, string> = {}) => ({
  pathname,
  search: '',
  headers: new Headers(headers),
});

describe('the proxy’s identity gate', () => {
  it('none mode lets everything through', () => {
    expect(authGate(settings('none'), at('/proxies'))).toBeNull();
    expect(authGate(settings('none'), at('/api/inventory'))).toBeNull();
  });

  it('token mode: pages without a session cookie go to the login, the API answers 401 NO_SESSION', () => {
    expect(authGate(settings('token'), at('/proxies'))).toEqual({
      redirect: '/login?reason=NO_SESSION',
    });
    expect(authGate(settings('token'), at('/api/inventory'))).toMatchObject({
      refusal: { status: 401, code: 'NO_SESSION' },
    });
    expect(
      authGate(settings('token'), at('/api/inventory', { cookie: 'meshdx_session=v1.x' })),
    ).toBeNull();
  });

  it('the login, the session API, the kubelet probe, the scrape and assets are open in every mode', () => {
    for (const p of [
      '/login',
      '/api/session',
      '/api/session/logout',
      '/api/health',
      '/api/metrics',
      '/_next/static/x.js',
    ])
      for (const mode of ['token', 'header'] as const)
        expect(authGate(settings(mode), at(p)), `${mode} ${p}`).toBeNull();
  });

  it('header mode: no (or a blank) user header is a 401 naming the header, pages included', () => {
    const cases: Record<string, string>[] = [{}, { 'X-Forwarded-User': '  ' }];
    for (const headers of cases)
      expect(authGate(settings('header'), at('/', headers))).toMatchObject({
        refusal: {
          status: 401,
          code: 'NO_PROXY_IDENTITY',
          message: expect.stringContaining('X-Forwarded-User') as unknown,
        },
      });
    expect(authGate(settings('header'), at('/', { 'X-Forwarded-User': 'bob' }))).toBeNull();
  });
});

describe('the identity settings are validated at start-up', () => {
  const base = { NODE_ENV: 'test' as const };
  it('names a bad mode, header name or short secret', () => {
    expect(() => loadEnv({ ...base, MESHDX_AUTH: 'oidc' })).toThrow(/MESHDX_AUTH/);
    expect(() => loadEnv({ ...base, MESHDX_AUTH_USER_HEADER: 'X Forwarded User' })).toThrow(
      /MESHDX_AUTH_USER_HEADER: must be an HTTP header name/,
    );
    expect(() => loadEnv({ ...base, MESHDX_SESSION_SECRET: 'short' })).toThrow(
      /MESHDX_SESSION_SECRET: must be at least 32 characters/,
    );
    expect(loadEnv(base)).toMatchObject({
      MESHDX_AUTH: 'none',
      MESHDX_AUTH_USER_HEADER: 'X-Forwarded-User',
      MESHDX_AUTH_GROUPS_HEADER: 'X-Forwarded-Groups',
    });
  });
});
