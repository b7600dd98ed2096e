import { describe, expect, it } from 'vitest';
import { parseViewState, refList, viewStateQuery, windowProblem } from './viewstate';

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

describe('time window parameters', () => {
  it('reads RFC 3339 only: a bare number is not the year 2001', () => {
    expect(parseViewState('incidents', { from: '1' })).toEqual({});
    expect(parseViewState('incidents', { from: '2026-11-01' })).toEqual({});
    expect(parseViewState('incidents', { from: '2026-11-01T12:00:00.250+01:00' }).from).toBe(
      '2026-11-01T11:00:00.250Z',
    );
  });

  it('names the parameter of an unparseable, impossible or out-of-range time', () => {
    expect(windowProblem({ from: '1' })?.message).toMatch(/^from: "1" is not epoch milliseconds/);
    expect(windowProblem({ from: '2026-11-01' })?.message).toMatch(/^from: .*not an RFC 3339 time/);
    expect(windowProblem({ to: 'yesterday' })?.status).toBe(400);
    expect(windowProblem({ to: '2026-02-30T00:00:00Z' })?.message).toMatch(/^to: .*not a valid/);
    expect(windowProblem({ from: '1999-01-01T00:00:00Z' })?.message).toMatch(/out of range/);
    expect(windowProblem({ from: '2026-11-01T12:00:00Z', to: '2026-11-01T12:05:00Z' })).toBeNull();
    expect(windowProblem(new URLSearchParams('context=x'))).toBeNull();
  });

  it('refuses an inverted or overlong window', () => {
    const inverted = windowProblem({ from: '2026-11-01T12:05:00Z', to: '2026-11-01T12:00:00Z' });
    expect(inverted?.code).toBe('INVALID_PARAMETER');
    expect(inverted?.message).toMatch(/^from: .* is not before to/);
    expect(
      windowProblem({ from: '2026-01-01T00:00:00Z', to: '2026-03-01T00:00:00Z' })?.message,
    ).toMatch(/^to: the window is longer than 31 days/);
  });

  it('takes several clients, comma-separated', () => {
    const s = parseViewState('incidents', { client: 'web/a-1,web/b-2,web/a-1' });
    expect(refList(s.client)).toEqual(['web/a-1', 'web/b-2']);
    expect(parseViewState('incidents', { client: 'web/a-1,../x' }).client).toBeUndefined();
  });
});
