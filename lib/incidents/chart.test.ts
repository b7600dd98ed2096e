import { describe, expect, it } from 'vitest';
import { barSpans, binStart, bucketSizeMs, chartDomain, failureBuckets } from './chart';
import { chartWindow } from './build';

const T0 = Date.parse('2026-11-01T12:00:00Z');
const S = 1000;
const MIN = 60 * S;

describe('bin step from the window', () => {
  it('keeps every window between about 60 and 120 bins, from 1 s to hours', () => {
    expect(bucketSizeMs(60 * S)).toBe(S);
    expect(bucketSizeMs(2 * MIN)).toBe(S);
    expect(bucketSizeMs(5 * MIN)).toBe(5 * S);
    expect(bucketSizeMs(15 * MIN)).toBe(10 * S);
    expect(bucketSizeMs(60 * MIN)).toBe(30 * S);
    expect(bucketSizeMs(6 * 60 * MIN)).toBe(5 * MIN);
    for (const span of [45 * S, 3 * MIN, 17 * MIN, 2 * 60 * MIN, 36 * 60 * MIN]) {
      const bins = span / bucketSizeMs(span);
      expect(bins).toBeLessThanOrEqual(120);
      expect(bins).toBeGreaterThanOrEqual(40);
    }
  });
});

describe('bars on the shared time axis', () => {
  // The phantom-503 shape: the pod's deletion starts at 12:00:20 and its clients fail 3 ms
  // after each tick from then on; at minute bins these used to sit in a bar drawn before it.
  const deletion = T0 + 20 * S;
  const failures = [0, 1, 2, 3, 4].map((i) => ({ timeMs: deletion + i * S + 3, flags: ['UC'] }));

  it('draws each failure inside its bar, and no bar wholly before the deletion', () => {
    for (const [from, to] of [
      [T0, T0 + MIN],
      [T0 - 10 * MIN, T0 + 5 * MIN],
      [T0 - 2 * 60 * MIN, T0 + MIN],
    ] as const) {
      const step = bucketSizeMs(to - from);
      const { buckets } = failureBuckets(failures, from, to, step);
      const bars = barSpans(buckets, step).filter((b) => b.total > 0);
      expect(bars.reduce((n, b) => n + b.total, 0)).toBe(failures.length);
      for (const f of failures) {
        const bar = bars.find((b) => f.timeMs >= b.fromMs && f.timeMs < b.toMs);
        expect(bar, `failure at ${new Date(f.timeMs).toISOString()}`).toBeDefined();
        expect(bar?.toMs ?? 0).toBeGreaterThan(deletion);
        expect(bar?.centerMs).toBe((bar?.fromMs ?? 0) + step / 2);
      }
    }
  });

  it('at a one-minute window every failure bar starts at or after the deletion', () => {
    const step = bucketSizeMs(MIN);
    const { buckets } = failureBuckets(failures, T0, T0 + MIN, step);
    const bars = barSpans(buckets, step).filter((b) => b.total > 0);
    expect(bars).toHaveLength(5);
    for (const b of bars) expect(b.fromMs).toBeGreaterThanOrEqual(deletion);
  });

  it('aligns bins on the step and keeps the window on the axis', () => {
    expect(binStart(T0 + 12_345, 5 * S)).toBe(T0 + 10 * S);
    expect(chartDomain(T0 + 2 * S, T0 + 58 * S, 5 * S)).toEqual([T0, T0 + 60 * S]);
  });
});

describe('chart window', () => {
  it('is the URL window when given', () => {
    expect(chartWindow({ fromMs: T0, toMs: T0 + MIN }, [T0 + 5 * MIN], T0 + 9 * MIN)).toEqual({
      fromMs: T0,
      toMs: T0 + MIN,
    });
  });
  it('else spans the failures with a minute before, never past now', () => {
    expect(
      chartWindow({ fromMs: null, toMs: null }, [T0 + 20 * S, T0 + 80 * S], T0 + 90 * S),
    ).toEqual({
      fromMs: T0 + 20 * S - MIN,
      toMs: T0 + 90 * S,
    });
    expect(chartWindow({ fromMs: null, toMs: null }, [], T0)).toEqual({
      fromMs: T0 - 15 * MIN,
      toMs: T0,
    });
  });
});
