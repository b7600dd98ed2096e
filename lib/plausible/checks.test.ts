import { describe, expect, it } from 'vitest';
import { readFixture } from '../../test-support/fixtures';
import { parseEnvoyStatsText } from '../metrics/admin-stats';
import {
  check,
  checked,
  COUNT,
  COUNTER,
  describeImplausible,
  DURATION_MS,
  MEMORY_BYTES,
  type Implausible,
} from './checks';

describe('plausibility checks', () => {
  it('keeps the figures a real proxy reports', () => {
    expect(check('c', 0, COUNT)).toEqual({ ok: true, value: 0 });
    expect(check('c', 4213, COUNT)).toEqual({ ok: true, value: 4213 });
    expect(check('m', 31_457_280, MEMORY_BYTES)).toEqual({ ok: true, value: 31_457_280 });
    expect(check('d', 812.5, DURATION_MS)).toEqual({ ok: true, value: 812.5 });
    expect(check('r', 2 ** 40, COUNTER)).toEqual({ ok: true, value: 2 ** 40 });
  });

  it('refuses what cannot exist, naming the figure, the raw value and the rule', () => {
    const cases: [number, typeof COUNT, RegExp][] = [
      [-5, COUNT, /never below 0/],
      [1.5, COUNT, /a whole number/],
      [99999999999999999999999, COUNT, /never above 10,000,000/],
      [1e308, MEMORY_BYTES, /never above/],
      [Infinity, MEMORY_BYTES, /finite/],
      [NaN, COUNT, /a number, not NaN/],
      [-1, DURATION_MS, /never below 0/],
    ];
    for (const [v, b, why] of cases) {
      const r = check('envoy_x', v, b);
      expect(r.ok, String(v)).toBe(false);
      if (r.ok) continue;
      expect(r.implausible.figure).toBe('envoy_x');
      expect(r.implausible.raw).toBe(String(v));
      expect(r.implausible.reason).toMatch(why);
    }
    const r = check('envoy_cluster_manager_active_clusters', 99999999999999999999999, COUNT);
    expect(r.ok === false && describeImplausible(r.implausible)).toBe(
      'implausible envoy_cluster_manager_active_clusters 1e+23: a count is never above 10,000,000 (a whole number from 0 to 10,000,000)',
    );
  });

  it('checked: null stays null (not read), an implausible value is null and noted', () => {
    const into: Implausible[] = [];
    expect(checked('a', null, COUNT, into)).toBeNull();
    expect(checked('b', 7, COUNT, into)).toBe(7);
    expect(checked('c', -5, COUNT, into)).toBeNull();
    expect(into.map((i) => [i.figure, i.raw])).toEqual([['c', '-5']]);
  });

  it('every counter and gauge of a real Envoy /stats answer is plausible', () => {
    const { stats } = parseEnvoyStatsText(
      readFixture('stats', 'istio-io_circuit_breaking_stats.txt'),
    );
    expect(stats.length).toBeGreaterThan(0);
    for (const s of stats) expect(check(s.name, s.value, COUNTER).ok, s.name).toBe(true);
  });
});
