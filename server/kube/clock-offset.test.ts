import { describe, expect, it } from 'vitest';
import { ClockOffset } from './clock-offset';

const http = (ms: number) => new Date(ms).toUTCString();

describe('ClockOffset', () => {
  it('is 0 with no answer, and ignores answers without a usable Date', () => {
    const c = new ClockOffset();
    c.observe(undefined, 0, 10);
    c.observe('not a date', 0, 10);
    expect(c.ms).toBe(0);
    expect(c.uncertaintyMs).toBe(Infinity);
  });

  it('narrows a whole-second Date header to about the round trip', () => {
    const skew = 22 * 86_400_000 + 437; // the cluster's clock is 22 days and 437 ms ahead
    const c = new ClockOffset();
    // answers at local times with every sub-second phase, 20 ms round trips
    for (let local = 1_000_000; local < 1_010_000; local += 130) {
      const serverAt = local + 10 + skew;
      c.observe(http(serverAt - (serverAt % 1000)), local, local + 20);
    }
    expect(Math.abs(c.ms - skew)).toBeLessThanOrEqual(20);
    expect(c.uncertaintyMs).toBeLessThanOrEqual(20);
    expect(c.now(5_000).getTime() - 5_000).toBe(c.ms);
  });

  it('a clock behind ours gives a negative offset', () => {
    const c = new ClockOffset();
    for (let local = 0; local < 5_000; local += 77) {
      const serverAt = local + 5 - 90_000;
      c.observe(http(serverAt - (((serverAt % 1000) + 1000) % 1000)), local, local + 10);
    }
    // the truth (-89,995 ms) lies inside the interval the estimate claims
    expect(c.ms).toBeLessThan(0);
    expect(Math.abs(c.ms - -89_995)).toBeLessThanOrEqual(c.uncertaintyMs);
    expect(c.uncertaintyMs).toBeLessThan(100);
  });

  it('starts again when the cluster clock jumps (bounds stop overlapping)', () => {
    const c = new ClockOffset();
    c.observe(http(10_000), 10_000, 10_010);
    expect(Math.abs(c.ms)).toBeLessThanOrEqual(1000);
    c.observe(http(10_000 + 3_600_000), 11_000, 11_010);
    expect(Math.abs(c.ms - 3_599_000)).toBeLessThanOrEqual(1000);
  });

  it('a clock that stands still follows the newest answer', () => {
    const c = new ClockOffset();
    const frozen = Date.parse('2026-11-01T12:00:00Z');
    for (let local = 0; local <= 60_000; local += 5_000) c.observe(http(frozen), local, local + 5);
    expect(Math.abs(c.now(60_005).getTime() - frozen)).toBeLessThanOrEqual(1000);
  });
});
