import { describe, expect, it } from 'vitest';
import { chartExtent } from './extent';

const pts = (vals: (number | null)[], t0 = 1_000_000, step = 16_000) =>
  vals.map((avg, i) => ({ t: t0 + i * step, avg }));

describe('chartExtent', () => {
  it('spans the whole window when the first step has a sample', () => {
    expect(chartExtent(pts([110, 110, 34]), [])).toEqual({
      start: 1_000_000,
      end: 1_032_000,
      firstSampleAt: null,
    });
  });

  it('starts at the first sample when the series start late, and says when', () => {
    expect(chartExtent(pts([null, null, null, 110, 34, 34]), [])).toEqual({
      start: 1_048_000,
      end: 1_080_000,
      firstSampleAt: 1_048_000,
    });
  });

  it('keeps a Sidecar marker that came before the first sample in view', () => {
    const e = chartExtent(pts([null, null, null, 34, 34]), [{ at: 1_020_000 }]);
    expect(e).toEqual({ start: 1_020_000, end: 1_064_000, firstSampleAt: 1_048_000 });
  });

  it('ignores a marker before the window and answers null without any sample', () => {
    expect(chartExtent(pts([null, 110, 110]), [{ at: 10 }])?.start).toBe(1_016_000);
    expect(chartExtent(pts([null, null]), [])).toBeNull();
    expect(chartExtent([], [])).toBeNull();
  });
});
