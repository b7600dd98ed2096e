import { describe, expect, it } from 'vitest';
import { parseFilter } from './cel';

describe('the simulated proxy access-log filter', () => {
  it('evaluates response.code comparisons with && || and parentheses', () => {
    const f = parseFilter('response.code >= 500');
    expect([200, 499, 500, 503].map((code) => f?.({ code }))).toEqual([false, false, true, true]);
    const g = parseFilter('(response.code == 404 || response.code >= 500) && response.code != 503');
    expect([404, 500, 503, 200].map((code) => g?.({ code }))).toEqual([true, true, false, false]);
    expect(parseFilter('')?.({ code: 200 })).toBe(true);
  });

  it('understands nothing else', () => {
    expect(parseFilter('response.flags != "-"')).toBeNull();
    expect(parseFilter('response.code >= ')).toBeNull();
    expect(parseFilter('response.code >= 500 &&')).toBeNull();
  });
});
