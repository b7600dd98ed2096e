import type { AttributedRequest } from './collect';

export interface ChartBucket {
  start: string;
  total: number;
  byFlag: Record<string, number>;
}

/** Bucket size: one minute, coarser only when the range would need more than maxBuckets. */
export function bucketSizeMs(spanMs: number, maxBuckets = 720): number {
  const minute = 60_000;
  return Math.max(1, Math.ceil(spanMs / minute / maxBuckets)) * minute;
}

/** Failing requests per bucket by flag ("-" when a 5xx had none), zero-filled over [fromMs, toMs]. */
export function failureBuckets(
  requests: readonly AttributedRequest[],
  fromMs: number,
  toMs: number,
  bucketMs: number,
): { buckets: ChartBucket[]; flags: string[]; untimed: number } {
  const first = Math.floor(fromMs / bucketMs) * bucketMs;
  const last = Math.floor(toMs / bucketMs) * bucketMs;
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
    const b = map.get(Math.floor(r.timeMs / bucketMs) * bucketMs);
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
