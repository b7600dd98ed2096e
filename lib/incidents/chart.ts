import type { AttributedRequest } from './collect';

export interface ChartBucket {
  /** Start of the bin (inclusive), RFC 3339. The bin ends `bucketMs` later (exclusive). */
  start: string;
  total: number;
  byFlag: Record<string, number>;
}

const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;
/** Steps a bin may have: round numbers a reader can count in, from one second to a day. */
export const BIN_STEPS: readonly number[] = [
  S,
  2 * S,
  5 * S,
  10 * S,
  15 * S,
  30 * S,
  MIN,
  2 * MIN,
  5 * MIN,
  10 * MIN,
  15 * MIN,
  30 * MIN,
  H,
  2 * H,
  3 * H,
  6 * H,
  12 * H,
  24 * H,
];

/**
 * The bin step for a window: the finest round step that keeps the window within `maxBins` bins
 * (so a minute-long zoom gets one-second bins and a day gets 15-minute ones: about 60 to 120).
 */
export function bucketSizeMs(spanMs: number, maxBins = 120): number {
  for (const step of BIN_STEPS) if (spanMs / step <= maxBins) return step;
  return Math.ceil(spanMs / maxBins / (24 * H)) * 24 * H;
}

/** Start of the bin that holds `t` (bins are aligned on multiples of the step since the epoch). */
export function binStart(t: number, stepMs: number): number {
  return Math.floor(t / stepMs) * stepMs;
}

/** Failing requests per bin by flag ("-" when a 5xx had none), zero-filled over [fromMs, toMs]. */
export function failureBuckets(
  requests: readonly Pick<AttributedRequest, 'timeMs' | 'flags'>[],
  fromMs: number,
  toMs: number,
  bucketMs: number,
): { buckets: ChartBucket[]; flags: string[]; untimed: number } {
  const first = binStart(fromMs, bucketMs);
  const last = binStart(toMs, bucketMs);
  const map = new Map<number, ChartBucket>();
  for (let s = first; s <= last; s += bucketMs)
    map.set(s, { start: new Date(s).toISOString(), total: 0, byFlag: {} });
  const flags = new Map<string, number>();
  let untimed = 0;
  for (const r of requests) {
    if (r.timeMs === null) {
      untimed++;
      continue;
    }
    const b = map.get(binStart(r.timeMs, bucketMs));
    if (!b) continue;
    b.total++;
    for (const f of r.flags.length ? r.flags : ['-']) {
      b.byFlag[f] = (b.byFlag[f] ?? 0) + 1;
      flags.set(f, (flags.get(f) ?? 0) + 1);
    }
  }
  const order = [...flags.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return { buckets: [...map.values()], flags: order.map(([f]) => f), untimed };
}

/** A bar as drawn: it covers its bin's true time span on the time axis, not a category slot. */
export interface BarSpan {
  fromMs: number;
  toMs: number;
  /** Where recharts centres a bar on a numeric axis: the middle of the bin. */
  centerMs: number;
  total: number;
}

/** The bars of a chart, each spanning [start, start + step) on the shared time axis. */
export function barSpans(buckets: readonly ChartBucket[], bucketMs: number): BarSpan[] {
  return buckets.map((b) => {
    const fromMs = Date.parse(b.start);
    return { fromMs, toMs: fromMs + bucketMs, centerMs: fromMs + bucketMs / 2, total: b.total };
  });
}

/** The axis domain: the window itself, widened only to hold bins that start before it. */
export function chartDomain(fromMs: number, toMs: number, bucketMs: number): [number, number] {
  return [
    Math.min(fromMs, binStart(fromMs, bucketMs)),
    Math.max(toMs, binStart(toMs, bucketMs) + bucketMs),
  ];
}
