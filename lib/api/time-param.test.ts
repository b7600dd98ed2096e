import { describe, expect, it } from 'vitest';
import { parseTimeParam, rfc3339Problem } from './time-param';
import { resolveWindow, windowProblem } from './viewstate';

const NOW = Date.parse('2026-11-01T12:00:00.000Z');

const ok = (v: string, now: number | (() => number) = NOW) => {
  const t = parseTimeParam(v, now);
  if (!t.ok) throw new Error(t.problem);
  return t;
};
const problem = (v: string) => {
  const t = parseTimeParam(v, NOW);
  if (t.ok) throw new Error(`${v} was read as ${t.iso}`);
  return t.problem;
};

describe('a time as a link gives it', () => {
  it('reads RFC 3339, as meshdx writes it and Grafana ${__from:date:iso} sends it', () => {
    expect(ok('2026-11-01T11:45:00Z')).toEqual({
      ok: true,
      ms: NOW - 15 * 60_000,
      iso: '2026-11-01T11:45:00.000Z',
      form: 'rfc3339',
    });
    // Grafana's :date:iso is toISOString(): milliseconds and Z
    expect(ok('2026-11-01T11:45:00.123Z').ms).toBe(NOW - 15 * 60_000 + 123);
    expect(ok('2026-11-01T12:45:00+01:00').iso).toBe('2026-11-01T11:45:00.000Z');
  });

  it("reads epoch milliseconds, as Grafana's ${__from} and ${__to} send them", () => {
    expect(ok('1793534400000')).toMatchObject({
      iso: '2026-11-01T12:00:00.000Z',
      form: 'epoch-ms',
    });
    expect(ok(String(NOW - 3_600_000)).iso).toBe('2026-11-01T11:00:00.000Z');
  });

  it("reads Grafana's relative forms against the cluster's now", () => {
    expect(ok('now')).toMatchObject({ ms: NOW, form: 'relative' });
    expect(ok('now-15m').iso).toBe('2026-11-01T11:45:00.000Z');
    expect(ok('now-1h').iso).toBe('2026-11-01T11:00:00.000Z');
    expect(ok('now-2d').iso).toBe('2026-10-30T12:00:00.000Z');
    expect(ok('now-1w').iso).toBe('2026-10-25T12:00:00.000Z');
    expect(ok('now-30s').iso).toBe('2026-11-01T11:59:30.000Z');
    expect(ok('now+5m').iso).toBe('2026-11-01T12:05:00.000Z');
    expect(ok('now-1d-2h').iso).toBe('2026-10-31T10:00:00.000Z');
  });

  it('asks for the clock only for a relative time', () => {
    let asked = 0;
    const now = () => (asked++, NOW);
    ok('2026-11-01T11:45:00Z', now);
    ok('1793534400000', now);
    expect(asked).toBe(0);
    expect(ok('now-5m', now).iso).toBe('2026-11-01T11:55:00.000Z');
    expect(asked).toBe(1);
  });

  it('names what is ambiguous instead of guessing', () => {
    expect(problem('1793534400')).toMatch(/looks like epoch seconds.*milliseconds/);
    expect(problem('17935344000')).toMatch(/is not epoch milliseconds \(13 digits\)/);
    expect(problem('1')).toMatch(/is not epoch milliseconds/);
    expect(problem('now-1M')).toMatch(/months, which have no fixed length/);
    expect(problem('now-1y')).toMatch(/years, which have no fixed length/);
    expect(problem('now/d')).toMatch(/rounds to a unit.*time zone/);
    expect(problem('now-1d/d')).toMatch(/rounds to a unit/);
    expect(problem('now-15x')).toMatch(/unit "x": relative times take s, m, h, d or w/);
    expect(problem('now-')).toMatch(/is not a relative time/);
    expect(problem('now 15m')).toMatch(/is not a relative time/);
    expect(problem('nowish')).toMatch(/unit "ish"|is not a relative time/);
    expect(problem('yesterday')).toMatch(/is not an RFC 3339 time/);
    expect(problem('2026-11-01')).toMatch(/is not an RFC 3339 time/);
    expect(problem('2026-02-30T00:00:00Z')).toMatch(/is not a valid date and time/);
    expect(problem('-1793534400000')).toMatch(/is not an RFC 3339 time/);
    expect(problem('1793534400000.5')).toMatch(/is not an RFC 3339 time/);
  });

  it('keeps every form within 2014 to 2099', () => {
    expect(problem('1000000000000')).toMatch(/out of range/);
    expect(problem('9999999999999')).toMatch(/out of range/);
    expect(problem('now-9999999d')).toMatch(/out of range/);
    expect(rfc3339Problem('1999-01-01T00:00:00Z')).toMatch(/out of range/);
  });
});

describe('a window from a Grafana data link', () => {
  it('makes ${__from}/${__to} and now-1h absolute and says it did', () => {
    const w = resolveWindow(
      new URLSearchParams('namespace=shop&from=1793530800000&to=1793534400000&context=demo'),
      NOW,
    );
    expect(w.rewritten).toBe(true);
    expect(w.params.toString()).toBe(
      'namespace=shop&from=2026-11-01T11%3A00%3A00.000Z&to=2026-11-01T12%3A00%3A00.000Z&context=demo',
    );
    expect(resolveWindow({ from: 'now-1h', to: 'now' }, NOW).params.get('from')).toBe(
      '2026-11-01T11:00:00.000Z',
    );
  });

  it('reads the clock once for both bounds, so now-1h..now is exactly an hour', () => {
    let t = NOW;
    const w = resolveWindow({ from: 'now-1h', to: 'now' }, () => (t += 7));
    expect(Date.parse(w.params.get('to') ?? '') - Date.parse(w.params.get('from') ?? '')).toBe(
      3_600_000,
    );
    expect(t).toBe(NOW + 7);
  });

  it('leaves an RFC 3339 window as it was given', () => {
    const w = resolveWindow({ from: '2026-11-01T11:00:00+00:00', to: '2026-11-01T12:00:00Z' }, NOW);
    expect(w.rewritten).toBe(false);
    expect(w.params.get('from')).toBe('2026-11-01T11:00:00+00:00');
  });

  it('refuses an inverted relative window, a repeated bound and a bad one, naming each', () => {
    expect(windowProblem({ from: 'now', to: 'now-1h' }, NOW)?.message).toMatch(
      /^from: now is not before to \(now-1h\)/,
    );
    expect(windowProblem({ from: 'now-32d', to: 'now' }, NOW)?.message).toMatch(
      /^to: the window is longer than 31 days/,
    );
    expect(windowProblem(new URLSearchParams('to=now&to=now-1h'), NOW)?.message).toBe(
      'to: given 2 times',
    );
    const bad = windowProblem({ from: '1793534400' }, NOW);
    expect(bad?.status).toBe(400);
    expect(bad?.message).toMatch(/^from: "1793534400" looks like epoch seconds/);
    expect(bad?.hint).toMatch(/now-15m/);
  });
});
