import { describe, expect, it } from 'vitest';
import { identityKey } from './users';

describe('identityKey', () => {
  it('tells users apart without holding the token', () => {
    const a = identityKey({
      mode: 'token',
      user: 'a',
      groups: [],
      token: 'secret-1',
      context: 'c',
    });
    const b = identityKey({
      mode: 'token',
      user: 'a',
      groups: [],
      token: 'secret-2',
      context: 'c',
    });
    expect(a).not.toBe(b);
    expect(a).not.toContain('secret');
    expect(identityKey({ mode: 'header', user: 'u', groups: ['b', 'a'] })).toBe(
      identityKey({ mode: 'header', user: 'u', groups: ['a', 'b'] }),
    );
    expect(identityKey({ mode: 'header', user: 'u', groups: [] })).not.toBe(
      identityKey({ mode: 'header', user: 'u', groups: ['a'] }),
    );
  });
});
