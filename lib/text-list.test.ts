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

describe('counted', () => {
  it('puts the noun in the plural unless the count is one', async () => {
    const { counted } = await import('./text-list');
    expect(counted(0, 'error')).toBe('0 errors');
    expect(counted(1, 'error')).toBe('1 error');
    expect(counted(2, 'kind')).toBe('2 kinds');
    expect(counted(1, 'more kind')).toBe('1 more kind');
    expect(counted(3, 'proxy', 'proxies')).toBe('3 proxies');
  });
});
