import { describe, expect, it } from 'vitest';
import { contextFrom, withContext } from './context';

describe('the context in links', () => {
  it('adds the context to a path with or without a query and keeps a fragment', () => {
    expect(withContext('/timelines', 'prod-eu')).toBe('/timelines?context=prod-eu');
    expect(withContext('/findings?code=IST0118', 'a b')).toBe(
      '/findings?code=IST0118&context=a%20b',
    );
    expect(withContext('/x?y=1#top', 'c')).toBe('/x?y=1&context=c#top');
  });
  it('leaves the path alone for the default context', () => {
    expect(withContext('/proxies', null)).toBe('/proxies');
    expect(withContext('/proxies', '')).toBe('/proxies');
  });
  it('reads the context from search params of either shape', () => {
    expect(contextFrom(new URLSearchParams('context=k%2Fy&namespace=a'))).toBe('k/y');
    expect(contextFrom({ context: ['first', 'second'] })).toBe('first');
    expect(contextFrom({ context: '' })).toBeNull();
    expect(contextFrom({})).toBeNull();
  });
});
