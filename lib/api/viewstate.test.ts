import { describe, expect, it } from 'vitest';
import { parseViewState, viewStateQuery } from './viewstate';

describe('view state in the URL', () => {
  it('round-trips a timelines state', () => {
    const state = {
      namespace: 'shop',
      pod: 'shop/payments-abc',
      verdict: 'race',
      sort: 'gap',
      dir: 'desc' as const,
    };
    const q = viewStateQuery(state);
    expect(q).toBe('?dir=desc&namespace=shop&pod=shop%2Fpayments-abc&sort=gap&verdict=race');
    expect(parseViewState('timelines', new URLSearchParams(q.slice(1)))).toEqual(state);
  });

  it('drops invalid values instead of trusting them', () => {
    const s = parseViewState('incidents', {
      namespace: '../etc',
      ip: '10.0.0.1; rm',
      from: 'yesterday',
      to: '2026-01-01T00:00:00Z',
    });
    expect(s).toEqual({ to: '2026-01-01T00:00:00.000Z' });
  });

  it('normalises times to absolute UTC', () => {
    const s = parseViewState('incidents', { from: '2026-03-01T10:00:00+02:00', ip: '2001:db8::1' });
    expect(s.from).toBe('2026-03-01T08:00:00.000Z');
    expect(s.ip).toBe('2001:db8::1');
  });

  it('takes the first of repeated params', () => {
    expect(parseViewState('overview', { namespace: ['a', 'b'] })).toEqual({ namespace: 'a' });
  });
});
