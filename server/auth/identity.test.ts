import { describe, expect, it } from 'vitest';
import { asMeshdx, parseGroups, resolveIdentity, type AuthSettings } from './identity';
import { sealingKey } from './seal';
import { sealSession } from './session';

const key = sealingKey(undefined);
const header: AuthSettings = {
  MESHDX_AUTH: 'header',
  MESHDX_AUTH_USER_HEADER: 'X-Forwarded-User',
  MESHDX_AUTH_GROUPS_HEADER: 'X-Forwarded-Groups',
};
const token: AuthSettings = { ...header, MESHDX_AUTH: 'token' };

const codeOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return { status: (e as { status: number }).status, code: (e as { code: string }).code };
  }
  return null;
};

describe('resolveIdentity', () => {
  it('none mode needs nothing', () => {
    expect(resolveIdentity(new Headers(), { ...header, MESHDX_AUTH: 'none' }, key)).toEqual({
      mode: 'none',
    });
  });

  it('header mode reads the configured headers; groups trimmed, empties and repeats dropped', () => {
    const id = resolveIdentity(
      new Headers({
        'X-Forwarded-User': ' bob@example.com ',
        'X-Forwarded-Groups': 'sre, ,dev,sre',
      }),
      header,
      key,
    );
    expect(id).toEqual({ mode: 'header', user: 'bob@example.com', groups: ['sre', 'dev'] });
    const custom = { ...header, MESHDX_AUTH_USER_HEADER: 'X-Auth-Request-User' };
    expect(
      resolveIdentity(new Headers({ 'X-Auth-Request-User': 'eve' }), custom, key),
    ).toMatchObject({ user: 'eve', groups: [] });
  });

  it('header mode without the header, or with a control character, is a 401 naming the problem', () => {
    expect(codeOf(() => resolveIdentity(new Headers(), header, key))).toEqual({
      status: 401,
      code: 'NO_PROXY_IDENTITY',
    });
    expect(
      codeOf(() => resolveIdentity(new Headers({ 'X-Forwarded-User': '   ' }), header, key)),
    ).toEqual({ status: 401, code: 'NO_PROXY_IDENTITY' });
    expect(
      codeOf(() =>
        resolveIdentity(
          new Headers({ 'X-Forwarded-User': 'a', 'X-Forwarded-Groups': 'x'.repeat(300) }),
          header,
          key,
        ),
      ),
    ).toEqual({ status: 401, code: 'BAD_PROXY_IDENTITY' });
  });

  it('token mode opens the session cookie; absent, forged and expired are told apart', () => {
    const now = Date.parse('2029-01-01T00:00:00Z');
    const s = { v: 1 as const, token: 't0k3n', user: 'al', groups: [], context: 'c', exp: now + 1 };
    const cookie = (v: string) => new Headers({ cookie: `meshdx_session=${v}` });
    expect(resolveIdentity(cookie(sealSession(s, key)), token, key, now)).toEqual({
      mode: 'token',
      user: 'al',
      groups: [],
      token: 't0k3n',
      context: 'c',
    });
    expect(codeOf(() => resolveIdentity(new Headers(), token, key, now))?.code).toBe('NO_SESSION');
    expect(
      codeOf(() => resolveIdentity(cookie(sealSession(s, sealingKey(undefined))), token, key, now))
        ?.code,
    ).toBe('SESSION_INVALID');
    expect(
      codeOf(() => resolveIdentity(cookie(sealSession(s, key)), token, key, now + 1))?.code,
    ).toBe('SESSION_EXPIRED');
  });
});

describe('parseGroups', () => {
  it('of nothing is no groups', () => {
    expect(parseGroups(null)).toEqual([]);
    expect(parseGroups('')).toEqual([]);
  });
});

describe('asMeshdx', () => {
  it('is a scope acting as meshdx itself on the context named, never a user', () => {
    expect(asMeshdx('prod')).toEqual({ context: 'prod', identity: { mode: 'none' } });
    expect(asMeshdx(null).context).toBeNull();
  });
});
