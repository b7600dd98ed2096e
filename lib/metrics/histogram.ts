import type { Sample } from './types';

export interface HistogramBucket {
  /** Upper bound (`le`), Infinity for +Inf. */
  le: number;
  /** Cumulative count. */
  count: number;
}

export interface Histogram {
  name: string;
  labels: Record<string, string>;
  buckets: HistogramBucket[];
  sum: number | null;
  count: number | null;
}

function sameLabels(a: Record<string, string>, b: Record<string, string>, skip: string): boolean {
  const ka = Object.keys(a).filter((k) => k !== skip);
  const kb = Object.keys(b).filter((k) => k !== skip);
  return ka.length === kb.length && ka.every((k) => a[k] === b[k]);
}

/**
 * Collects the histogram `name` (from `name_bucket{le=..}`, `name_sum`, `name_count`) for the
 * first label set found, or for the label set that equals `labels` (ignoring `le`).
 */
export function readHistogram(
  samples: readonly Sample[],
  name: string,
  labels?: Record<string, string>,
): Histogram | null {
  let key: Record<string, string> | undefined = labels;
  const buckets: HistogramBucket[] = [];
  let sum: number | null = null;
  let count: number | null = null;
  for (const s of samples) {
    const part =
      s.name === `${name}_bucket`
        ? 'bucket'
        : s.name === `${name}_sum`
          ? 'sum'
          : s.name === `${name}_count`
            ? 'count'
            : null;
    if (!part) continue;
    if (key === undefined)
      key = Object.fromEntries(Object.entries(s.labels).filter(([k]) => k !== 'le'));
    if (!sameLabels(s.labels, key, 'le')) continue;
    if (part === 'sum') sum = s.value;
    else if (part === 'count') count = s.value;
    else {
      const le =
        s.labels.le === undefined ? NaN : Number(s.labels.le.replace(/^\+?Inf$/i, 'Infinity'));
      if (!Number.isNaN(le)) buckets.push({ le, count: s.value });
    }
  }
  if (key === undefined) return null;
  buckets.sort((a, b) => a.le - b.le);
  return { name, labels: key, buckets, sum, count };
}

/**
 * Quantile estimate by linear interpolation inside the bucket, like PromQL histogram_quantile:
 * the lowest bucket starts at 0, a quantile in the +Inf bucket returns the highest finite bound.
 * Null when there are no observations or no buckets.
 */
export function histogramQuantile(q: number, buckets: readonly HistogramBucket[]): number | null {
  if (buckets.length === 0 || Number.isNaN(q)) return null;
  if (q < 0) return -Infinity;
  if (q > 1) return Infinity;
  const last = buckets[buckets.length - 1] as HistogramBucket;
  const total = last.count;
  if (!(total > 0)) return null;
  const rank = q * total;
  let prevLe = 0;
  let prevCount = 0;
  for (let i = 0; i < buckets.length; i++) {
    const b = buckets[i] as HistogramBucket;
    if (b.count >= rank) {
      if (b.le === Infinity) return i > 0 ? prevLe : null;
      if (i === 0 && b.le <= 0) return b.le;
      const lower = i === 0 ? 0 : prevLe;
      const inBucket = b.count - prevCount;
      if (inBucket <= 0) return b.le;
      return lower + (b.le - lower) * ((rank - prevCount) / inBucket);
    }
    prevLe = b.le;
    prevCount = b.count;
  }
  return prevLe;
}
