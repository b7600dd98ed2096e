import { describe, expect, it } from 'vitest';
import { seal, sealingKey, unseal } from './seal';
import {
  clearedSessionCookie,
  cookieValue,
  isHttps,
  openSession,
  sealSession,
  sessionCookie,
  type Session,
} from './session';

const key = sealingKey('a-secret-of-at-least-thirty-two-characters!');
const session: Session = {
  v: 1,
  token: 'eyJhbGciOiJSUzI1NiJ9.payload.sig',
  user: 'alice',
  groups: ['dev'],
  context: 'prod',
  exp: Date.parse('2030-01-01T00:00:00Z'),
};

describe('sealing', () => {
  it('round-trips, hides the plaintext, and never seals twice the same', () => {
    const a = seal('hello token', key);
    expect(a.startsWith('v1.')).toBe(true);
    expect(a).not.toContain('hello');
    expect(seal('hello token', key)).not.toBe(a);
    expect(unseal(a, key)).toEqual({ ok: true, plaintext: 'hello token' });
  });

  it('the same secret gives the same key (sessions survive a restart); no secret, a random one', () => {
    const s = 'another-secret-of-at-least-thirty-two-chars';
    expect(sealingKey(s).equals(sealingKey(s))).toBe(true);
    expect(sealingKey(undefined).equals(sealingKey(undefined))).toBe(false);
    expect(unseal(seal('x', key), sealingKey(undefined))).toEqual({ ok: false, why: 'forged' });
  });

  it('refuses every altered byte, truncation and garbage', () => {
    const sealed = seal('payload', key);
    for (let i = 3; i < sealed.length; i++) {
      const c = sealed[i] === 'A' ? 'B' : 'A';
      const altered = sealed.slice(0, i) + c + sealed.slice(i + 1);
      expect(unseal(altered, key).ok, `byte ${i}`).toBe(false);
    }
    expect(unseal(sealed.slice(0, 20), key)).toEqual({ ok: false, why: 'malformed' });
    expect(unseal('v2.abc', key)).toEqual({ ok: false, why: 'malformed' });
    expect(unseal('v1.!!!', key)).toEqual({ ok: false, why: 'malformed' });
    expect(unseal('', key)).toEqual({ ok: false, why: 'malformed' });
  });
});

describe('the session cookie', () => {
  const now = Date.parse('2029-01-01T00:00:00Z');

  it('opens what it sealed, until it expires', () => {
    const v = sealSession(session, key);
    expect(v).not.toContain(session.token);
    expect(openSession(v, key, now)).toEqual({ ok: true, session });
    expect(openSession(v, key, session.exp)).toEqual({ ok: false, why: 'expired' });
    expect(openSession(undefined, key, now)).toEqual({ ok: false, why: 'absent' });
  });

  it('refuses a sealed value that is not a session (another shape, wrong version)', () => {
    expect(openSession(seal('{"v":2}', key), key, now)).toEqual({ ok: false, why: 'invalid' });
    expect(openSession(seal('not json', key), key, now)).toEqual({ ok: false, why: 'invalid' });
    const noUser = JSON.stringify({ ...session, user: '' });
    expect(openSession(seal(noUser, key), key, now)).toEqual({ ok: false, why: 'invalid' });
  });

  it('is HttpOnly, SameSite=Strict, Path=/, bounded, and Secure over https (also behind a TLS proxy)', () => {
    expect(sessionCookie('v1.x', 28800, false)).toBe(
      'meshdx_session=v1.x; Path=/; HttpOnly; SameSite=Strict; Max-Age=28800',
    );
    expect(sessionCookie('v1.x', 60, true)).toMatch(/; Secure$/);
    expect(clearedSessionCookie(false)).toContain('Max-Age=0');
    expect(isHttps('http://meshdx/', new Headers({ 'X-Forwarded-Proto': 'https' }))).toBe(true);
    expect(isHttps('https://meshdx/', new Headers())).toBe(true);
    expect(isHttps('http://meshdx/', new Headers({ 'X-Forwarded-Proto': 'http' }))).toBe(false);
  });

  it('finds its cookie among others', () => {
    expect(cookieValue('a=1; meshdx_session=v1.abc; b=2', 'meshdx_session')).toBe('v1.abc');
    expect(cookieValue('meshdx_sessionx=1', 'meshdx_session')).toBeUndefined();
    expect(cookieValue(null, 'meshdx_session')).toBeUndefined();
  });
});
