import { describe, expect, it } from 'vitest';
import { firstAndMore } from './text-list';

describe('firstAndMore', () => {
  it('names every item up to max, then counts the rest', () => {
    expect(firstAndMore([], 3)).toBe('');
    expect(firstAndMore(['a'], 3)).toBe('a');
    expect(firstAndMore(['a', 'b', 'c'], 3)).toBe('a, b, c');
    expect(firstAndMore(['a', 'b', 'c', 'd', 'e'], 3)).toBe('a, b, c and 2 more');
  });

  it('counts items the caller did not keep', () => {
    expect(firstAndMore(['a', 'b'], 10, 7)).toBe('a, b and 5 more');
    expect(firstAndMore(['a', 'b', 'c'], 2, 9)).toBe('a, b and 7 more');
    expect(firstAndMore(['a', 'b'], 10, 1)).toBe('a, b');
  });
});
