import { describe, expect, it } from 'vitest';
import { describeSession, SessionInfoSchema } from './session';

describe('describeSession', () => {
  it('says each mode in words, without the always-present system:authenticated group', () => {
    const base = { groups: [], problem: null };
    expect(describeSession({ ...base, mode: 'none', user: null, signedIn: false })).toBe(
      'no login (port-forward install)',
    );
    expect(
      describeSession({
        ...base,
        mode: 'token',
        user: 'alice',
        groups: ['dev', 'system:authenticated'],
        signedIn: true,
      }),
    ).toBe('signed in as alice (dev) · token');
    expect(
      describeSession({ ...base, mode: 'header', user: 'bob@example.com', signedIn: true }),
    ).toBe('signed in as bob@example.com · impersonated via proxy');
    expect(describeSession({ ...base, mode: 'token', user: null, signedIn: false })).toBe(
      'not signed in',
    );
  });

  it('the schema refuses an unknown mode', () => {
    expect(
      SessionInfoSchema.safeParse({
        mode: 'oidc',
        user: null,
        groups: [],
        signedIn: false,
        problem: null,
      }).success,
    ).toBe(false);
  });
});
