import { describe, expect, it } from 'vitest';
import { readFixture } from '../../test-support/fixtures';
import { createLineParser } from '../accesslog/parser';
import { failureBuckets } from './chart';
import {
  addToBins,
  binsTotal,
  coarserStep,
  commonStep,
  mergeBuckets,
  newLiveBins,
} from './live-bins';

/** The records of a real access log (istio.io's examples), each with its time and flags. */
function realRecords(): { timeMs: number | null; flags: string[] }[] {
  const text = readFixture('access_logs', 'istio-io-docs_text_multi-version.log');
  const parser = createLineParser({});
  const out: { timeMs: number | null; flags: string[] }[] = [];
  for (const line of text.split('\n')) {
    const r = parser.push(line);
    if (r.kind === 'record') out.push({ timeMs: r.record.time, flags: r.record.responseFlags });
  }
  return out;
}

describe('live chart bins', () => {
  it('grows the step along multiples, so coarser bins hold exact sums', () => {
    let s = 1000;
    const seen = [s];
    while (s < 24 * 3600_000) {
      const n = coarserStep(s);
      expect(n % s).toBe(0);
      s = n;
      seen.push(s);
    }
    expect(seen.slice(0, 4)).toEqual([1000, 2000, 10_000, 30_000]);
  });

  it('counts every record of a real log, across seven years, in at most its bin limit', () => {
    const recs = realRecords();
    expect(recs.length).toBe(41);
    const bins = addToBins(newLiveBins(1000, 8), recs);
    expect(bins.bins.size).toBeLessThanOrEqual(8);
    expect(binsTotal(bins) + bins.untimed).toBe(41);
  });

  it('merges the snapshot bins and the live ones on a step both divide, losing none', () => {
    const recs = realRecords().filter((r) => r.timeMs !== null) as {
      timeMs: number;
      flags: string[];
    }[];
    const times = recs.map((r) => r.timeMs);
    const from = Math.min(...times);
    const to = Math.max(...times);
    const half = Math.floor(recs.length / 2);
    const snap = failureBuckets(recs.slice(0, half), from, to, 6 * 3600_000);
    const live = addToBins(newLiveBins(1000, 50), recs.slice(half));
    const step = commonStep(15 * 60_000, [6 * 3600_000, live.stepMs]);
    expect(step % (6 * 3600_000)).toBe(0);
    expect(step % live.stepMs).toBe(0);
    const merged = mergeBuckets(from, to, step, snap.buckets, live);
    expect(merged.buckets.reduce((n, b) => n + b.total, 0)).toBe(recs.length);
    const starts = merged.buckets.map((b) => Date.parse(b.start));
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
  });

  it('refuses a step or a limit it cannot keep', () => {
    expect(() => newLiveBins(0)).toThrow(/bin step 0 ms/);
    expect(() => newLiveBins(1000, 1)).toThrow(/bin limit 1/);
  });
});
