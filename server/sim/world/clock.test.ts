import { describe, it, expect, vi } from 'vitest';
import { createClock } from './clock';

const T0 = new Date('2026-01-01T00:00:00Z');
const at = (s: number): Date => new Date(T0.getTime() + s * 1000);

describe('createClock fixed', () => {
  it('stands still until advanced', () => {
    const c = createClock({ fixed: T0 });
    expect(c.mode).toBe('fixed');
    expect(c.now().toISOString()).toBe('2026-01-01T00:00:00.000Z');
    c.advance(1500);
    expect(c.now().toISOString()).toBe('2026-01-01T00:00:01.500Z');
  });

  it('runs due callbacks in time order, ties in scheduling order, seeing their own instant', () => {
    const c = createClock({ fixed: T0 });
    const seen: string[] = [];
    const log = (tag: string) => () => seen.push(`${tag}@${c.now().getTime() - T0.getTime()}`);
    c.schedule(at(3), log('c'));
    c.schedule(at(1), log('a'));
    c.schedule(at(2), log('b1'));
    c.schedule(at(2), log('b2'));
    c.schedule(at(10), log('late'));
    c.advance(5000);
    expect(seen).toEqual(['a@1000', 'b1@2000', 'b2@2000', 'c@3000']);
    expect(c.now().getTime() - T0.getTime()).toBe(5000);
    c.advance(5000);
    expect(seen.at(-1)).toBe('late@10000');
  });

  it('runs callbacks scheduled by callbacks when they fall inside the window', () => {
    const c = createClock({ fixed: T0 });
    const seen: number[] = [];
    const tick = (): void => {
      const s = (c.now().getTime() - T0.getTime()) / 1000;
      seen.push(s);
      c.schedule(at(s + 1), tick);
    };
    c.schedule(at(0), tick);
    expect(seen).toEqual([0]);
    c.advance(3500);
    expect(seen).toEqual([0, 1, 2, 3]);
  });

  it('runs a past-due schedule at once and keeps going after a failing callback', () => {
    const c = createClock({ fixed: T0 });
    const seen: string[] = [];
    c.advance(10_000);
    const origError = console.error;
    console.error = () => undefined;
    try {
      c.schedule(at(1), () => {
        throw new Error('boom');
      });
      c.schedule(at(2), () => seen.push('past'));
    } finally {
      console.error = origError;
    }
    expect(seen).toEqual(['past']);
    expect(c.now().getTime()).toBe(at(10).getTime());
  });

  it('stop() drops pending work', () => {
    const c = createClock({ fixed: T0 });
    const seen: number[] = [];
    c.schedule(at(1), () => seen.push(1));
    c.stop();
    c.advance(2000);
    c.schedule(at(0), () => seen.push(0));
    expect(seen).toEqual([]);
  });
});

describe('createClock real', () => {
  it('follows the wall clock with speed and shifts by advance()', async () => {
    const c = createClock('real', { speed: 10 });
    expect(c.mode).toBe('real');
    const t1 = c.now().getTime();
    const seen: number[] = [];
    c.advance(60_000);
    expect(c.now().getTime() - t1).toBeGreaterThanOrEqual(60_000);
    c.schedule(new Date(c.now().getTime() + 100), () => seen.push(1));
    c.schedule(new Date(c.now().getTime() + 50), () => seen.push(0));
    // both are due within 10 ms of real time; a busy machine may fire the timers later, so the
    // test waits for them rather than for a fixed 60 ms, and checks their order
    await vi.waitFor(() => expect(seen).toHaveLength(2), { timeout: 60_000, interval: 5 });
    expect(seen).toEqual([0, 1]);
    c.stop();
  });
});
