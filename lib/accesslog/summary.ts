import type { AccessLogRecord } from './types';
import { isFailure } from './failure';

export interface FailureBucket {
  /** Start of the bucket, ISO 8601. */
  start: string;
  /** Requests with code >= 500 in the bucket. */
  count5xx: number;
  /** Failing requests (5xx or flagged) in the bucket. */
  failures: number;
  /** Flag -> failing requests carrying it ("-" for 5xx without flags). */
  byFlag: Record<string, number>;
}

/**
 * Failing requests per time bucket (default one minute), by flag, in time order.
 * Buckets without failures inside the covered range are included (zero) so a chart has no holes.
 * Records without a time are not placed; their count is returned as `untimed`.
 */
export function failuresPerBucket(
  records: Iterable<AccessLogRecord>,
  bucketMs = 60_000,
  maxBuckets = 10_000,
): { buckets: FailureBucket[]; untimed: number } {
  const map = new Map<number, FailureBucket>();
  let untimed = 0;
  for (const r of records) {
    if (!isFailure(r)) continue;
    if (r.time === null) {
      untimed++;
      continue;
    }
    const start = Math.floor(r.time / bucketMs) * bucketMs;
    let b = map.get(start);
    if (!b) {
      b = { start: new Date(start).toISOString(), count5xx: 0, failures: 0, byFlag: {} };
      map.set(start, b);
    }
    b.failures++;
    if (r.responseCode !== null && r.responseCode >= 500) b.count5xx++;
    const flags = r.responseFlags.length ? r.responseFlags : ['-'];
    for (const f of flags) b.byFlag[f] = (b.byFlag[f] ?? 0) + 1;
  }
  const starts = [...map.keys()].sort((a, b) => a - b);
  const first = starts[0];
  const last = starts[starts.length - 1];
  if (first === undefined || last === undefined) return { buckets: [], untimed };
  const span = (last - first) / bucketMs + 1;
  if (span > maxBuckets)
    return { buckets: starts.map((s) => map.get(s) as FailureBucket), untimed };
  const buckets: FailureBucket[] = [];
  for (let s = first; s <= last; s += bucketMs) {
    buckets.push(
      map.get(s) ?? { start: new Date(s).toISOString(), count5xx: 0, failures: 0, byFlag: {} },
    );
  }
  return { buckets, untimed };
}
