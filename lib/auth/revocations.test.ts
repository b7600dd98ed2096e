import { describe, expect, it } from 'vitest';
import {
  addRevocation,
  formatRevocations,
  isRevoked,
  parseRevocations,
  type Revocation,
} from './revocations';

const id = (c: string) => c.repeat(64);
const now = 1_800_000_000_000;

describe('session revocations', () => {
  it('holds an entry until its cookie would have expired, then drops it', () => {
    const list = addRevocation([], { id: id('a'), exp: now + 1000 }, now);
    expect(isRevoked(list, id('a'), now)).toBe(true);
    expect(isRevoked(list, id('b'), now)).toBe(false);
    expect(isRevoked(list, id('a'), now + 1000)).toBe(false);
    const later = addRevocation(list, { id: id('b'), exp: now + 5000 }, now + 2000);
    expect(later).toEqual([{ id: id('b'), exp: now + 5000 }]);
  });

  it('an already expired cookie adds nothing; the same cookie twice is one entry', () => {
    expect(addRevocation([], { id: id('a'), exp: now }, now)).toEqual([]);
    const twice = addRevocation(
      addRevocation([], { id: id('a'), exp: now + 10 }, now),
      { id: id('a'), exp: now + 10 },
      now,
    );
    expect(twice).toHaveLength(1);
  });

  it('is bounded: over the limit, the entries nearest their own expiry go first', () => {
    let list: Revocation[] = [];
    for (const [c, exp] of [
      ['a', 300],
      ['b', 100],
      ['c', 200],
    ] as const)
      list = addRevocation(list, { id: id(c), exp: now + exp }, now, 2);
    expect(list.map((r) => r.id[0]).sort()).toEqual(['a', 'c']);
  });

  it('round-trips through its file form and names what is wrong with a bad file', () => {
    const list = [{ id: id('f'), exp: now + 60_000 }];
    expect(parseRevocations(formatRevocations(list), now)).toEqual({ ok: true, list });
    // expired entries are dropped on reading
    expect(parseRevocations(formatRevocations(list), now + 60_000)).toEqual({ ok: true, list: [] });
    const notJson = parseRevocations('{', now);
    expect(notJson.ok).toBe(false);
    expect(!notJson.ok && notJson.problem).toMatch(/^not JSON/);
    const wrong = parseRevocations('{"v":1,"revoked":[{"id":"cookie","exp":1}]}', now);
    expect(!wrong.ok && wrong.problem).toMatch(/revoked\.0\.id/);
  });
});
