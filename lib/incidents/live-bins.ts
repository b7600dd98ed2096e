/**
 * The failures of a live session as chart bins: every request that arrived is counted in a bin
 * (memory is bounded by making old bins coarser, never by dropping rows from the count), and the
 * snapshot's bins and the live ones are merged on one step that is a multiple of both.
 */
import type { ChartBucket } from './chart';
import { BIN_STEPS, binStart } from './chart';

const DAY = 24 * 60 * 60 * 1000;

export interface Bin {
  total: number;
  byFlag: Record<string, number>;
}

/** Counts per bin of `stepMs`; at most `maxBins` bins, the step growing when more are needed. */
export interface LiveBins {
  stepMs: number;
  maxBins: number;
  bins: Map<number, Bin>;
  /** Requests without a time: counted, in no bin. */
  untimed: number;
}

export function newLiveBins(stepMs = 1000, maxBins = 720): LiveBins {
  if (!Number.isInteger(stepMs) || stepMs <= 0)
    throw new Error(`bin step ${stepMs} ms is not a positive integer`);
  if (!Number.isInteger(maxBins) || maxBins < 2) throw new Error(`bin limit ${maxBins} is below 2`);
  return { stepMs, maxBins, bins: new Map(), untimed: 0 };
}

/** The next coarser step: the smallest round step that is a multiple of `stepMs`. */
export function coarserStep(stepMs: number): number {
  for (const s of BIN_STEPS) if (s > stepMs && s % stepMs === 0) return s;
  return Math.ceil((stepMs * 2) / DAY) * DAY;
}

function addBin(
  into: Map<number, Bin>,
  start: number,
  total: number,
  byFlag: Record<string, number>,
) {
  const b = into.get(start) ?? { total: 0, byFlag: {} };
  b.total += total;
  for (const [f, n] of Object.entries(byFlag)) b.byFlag[f] = (b.byFlag[f] ?? 0) + n;
  into.set(start, b);
}

/** Re-counts bins on a step that is a multiple of theirs (nothing is lost: sums carry over). */
function rebin(bins: ReadonlyMap<number, Bin>, stepMs: number): Map<number, Bin> {
  const out = new Map<number, Bin>();
  for (const [start, b] of bins) addBin(out, binStart(start, stepMs), b.total, b.byFlag);
  return out;
}

/**
 * Adds requests (a new object: React state). A request past the bin limit makes every bin
 * coarser until the session fits again: the counts stay exact, only the resolution drops.
 */
export function addToBins(
  bins: LiveBins,
  requests: readonly { timeMs: number | null; flags: readonly string[] }[],
): LiveBins {
  let stepMs = bins.stepMs;
  let map = new Map(bins.bins);
  let untimed = bins.untimed;
  for (const r of requests) {
    if (r.timeMs === null) {
      untimed++;
      continue;
    }
    const byFlag: Record<string, number> = {};
    for (const f of r.flags.length ? r.flags : ['-']) byFlag[f] = (byFlag[f] ?? 0) + 1;
    addBin(map, binStart(r.timeMs, stepMs), 1, byFlag);
    while (map.size > bins.maxBins) {
      stepMs = coarserStep(stepMs);
      map = rebin(map, stepMs);
    }
  }
  return { ...bins, stepMs, bins: map, untimed };
}

/** Total of the timed requests counted. */
export function binsTotal(bins: LiveBins): number {
  let n = 0;
  for (const b of bins.bins.values()) n += b.total;
  return n;
}

/** The smallest round step of at least `minMs` that is a multiple of every step given. */
export function commonStep(minMs: number, steps: readonly number[]): number {
  const fits = (s: number) => s >= minMs && steps.every((x) => s % x === 0);
  for (const s of BIN_STEPS) if (fits(s)) return s;
  let s = Math.max(DAY, Math.ceil(minMs / DAY) * DAY);
  while (!fits(s)) s += DAY;
  return s;
}

/**
 * Chart buckets over [fromMs, toMs] at `stepMs` (a multiple of every source's step), zero-filled,
 * summing the snapshot's buckets and the live bins. Flags by count, most first.
 */
export function mergeBuckets(
  fromMs: number,
  toMs: number,
  stepMs: number,
  snapshot: readonly ChartBucket[],
  live: LiveBins,
): { buckets: ChartBucket[]; flags: string[] } {
  const map = new Map<number, Bin>();
  for (let s = binStart(fromMs, stepMs); s <= binStart(toMs, stepMs); s += stepMs)
    map.set(s, { total: 0, byFlag: {} });
  for (const b of snapshot) addBin(map, binStart(Date.parse(b.start), stepMs), b.total, b.byFlag);
  for (const [start, b] of live.bins) addBin(map, binStart(start, stepMs), b.total, b.byFlag);
  const flags = new Map<string, number>();
  for (const b of map.values())
    for (const [f, n] of Object.entries(b.byFlag)) flags.set(f, (flags.get(f) ?? 0) + n);
  const buckets = [...map.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([s, b]) => ({ start: new Date(s).toISOString(), total: b.total, byFlag: b.byFlag }));
  const order = [...flags.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return { buckets, flags: order.map(([f]) => f) };
}
