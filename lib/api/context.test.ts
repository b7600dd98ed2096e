import { describe, expect, it } from 'vitest';
import { isRequestError } from './request-error';
import { contextFrom, linkTo, urlContext, withContext } from './context';

const problemOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    if (isRequestError(e)) return { status: e.status, code: e.code, message: e.message };
    throw e;
  }
  return null;
};

describe('the context in links', () => {
  it('adds the context to a path with or without a query and keeps a fragment', () => {
    expect(linkTo('/api/pods', 'namespace=shop', 'prod')).toBe(
      '/api/pods?namespace=shop&context=prod',
    );
    expect(linkTo('/incidents', new URLSearchParams(), null)).toBe('/incidents');
    expect(linkTo('/timelines', new URLSearchParams({ verdict: 'race' }), 'a b')).toBe(
      '/timelines?verdict=race&context=a%20b',
    );
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
    expect(contextFrom({ context: 'kind-meshdx@admin' })).toBe('kind-meshdx@admin');
  });
});

describe('the one validated door for ?context=', () => {
  it('refuses a value no kubeconfig context can have, naming it, for pages and requests alike', () => {
    for (const params of [
      new URLSearchParams('context=a%20b'),
      { context: 'a b' },
      { context: ['a\nb'] },
      { context: 'x'.repeat(254) },
    ]) {
      const p = problemOf(() => contextFrom(params));
      expect(p).toMatchObject({ status: 400, code: 'INVALID_PARAMETER' });
      expect(p?.message).toMatch(/^context: ".*" is not a context name$/);
    }
    expect(contextFrom({ context: 'x'.repeat(253) })).toHaveLength(253);
  });
  it('the browser reads the value unchecked and sends it on to the server that checks it', () => {
    expect(urlContext({ context: 'a b' })).toBe('a b');
    expect(urlContext(new URLSearchParams(''))).toBeNull();
  });
});
