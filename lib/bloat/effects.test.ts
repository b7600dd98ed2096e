import { describe, expect, it } from 'vitest';
import { markerEffects } from './effects';

const pts = (vals: (number | null)[]) => vals.map((avg, i) => ({ t: i * 10, avg }));

describe('markerEffects', () => {
  it('reads the last step before a Sidecar and the last one before the next', () => {
    const p = pts([110.1, 110.1, 110.1, 34.1, 34.1, 20, 20]);
    expect(markerEffects(p, [{ at: 25 }, { at: 45 }])).toEqual([
      { at: 25, before: 110.1, after: 34.1 },
      { at: 45, before: 34.1, after: 20 },
    ]);
  });

  it('a side without a sample is unknown, not 0', () => {
    expect(markerEffects(pts([null, null, 34.1]), [{ at: 15 }])).toEqual([
      { at: 15, before: null, after: 34.1 },
    ]);
    expect(markerEffects(pts([110, 110, null, null]), [{ at: 15 }])).toEqual([
      { at: 15, before: 110, after: null },
    ]);
  });

  it('two Sidecars at the same time are one step of the line', () => {
    expect(markerEffects(pts([110, 110, 34]), [{ at: 15 }, { at: 15 }])).toHaveLength(1);
    expect(markerEffects(pts([110]), [])).toEqual([]);
  });
});
