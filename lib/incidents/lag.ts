import { podIdKey, podKeyOf, type PodIdentity } from '../refs/pod-ref';
import type { StoredFailure } from './failure-store';

/** How long one client proxy kept sending to a pod after that pod's deletion started. */
export interface ClientLag {
  /** The client proxy (`ns/name`). */
  client: string;
  /** The deleted pod (`ns/name`) and its uid. */
  pod: string;
  podUid: string | null;
  ip: string | null;
  deletionStartedAt: number;
  /** The last request the client still sent to the pod's IP. */
  lastRequestAt: number;
  lagMs: number;
  /** Requests it sent to the pod after the deletion started. */
  requests: number;
}

/** When a pod's deletion started, as known now (the history store), else as recorded. */
export type DeletionLookup = (pod: PodIdentity) => number | null;

/**
 * Per client proxy and deleted pod: the time from the pod's deletion (start) to the last request
 * the proxy still sent to its IP, from recorded failures. Requests before the deletion, without
 * a time, without an attributed pod or from a source that is not a proxy are not counted.
 * Ordered by lag, longest first.
 */
export function clientLags(
  failures: readonly StoredFailure[],
  deletionOf: DeletionLookup = () => null,
): ClientLag[] {
  const by = new Map<string, ClientLag>();
  for (const f of failures) {
    const pod = f.attribution.pod;
    const t = f.fields.time;
    if (!pod || t === null || f.source.read === 'upload') continue;
    const start = deletionOf(pod) ?? f.attribution.deletionStartedAt;
    if (start === null || t < start) continue;
    const key = f.source.proxy + '\u0000' + podIdKey(pod);
    const cur = by.get(key);
    if (!cur) {
      by.set(key, {
        client: f.source.proxy,
        pod: podKeyOf(pod),
        podUid: pod.uid ?? null,
        ip: f.attribution.upstreamIp,
        deletionStartedAt: start,
        lastRequestAt: t,
        lagMs: t - start,
        requests: 1,
      });
      continue;
    }
    cur.requests++;
    if (t > cur.lastRequestAt) {
      cur.lastRequestAt = t;
      cur.lagMs = t - cur.deletionStartedAt;
    }
  }
  return [...by.values()].sort(
    (a, b) => b.lagMs - a.lagMs || a.client.localeCompare(b.client) || a.pod.localeCompare(b.pod),
  );
}

/** One point of the lag series: the deletions that started in a bucket, and how long clients kept them. */
export interface LagPoint {
  start: number;
  /** Longest lag of any client for a pod whose deletion started in the bucket. */
  maxLagMs: number;
  /** Median over the (client, pod) pairs of the bucket. */
  medianLagMs: number;
  pairs: number;
}

/** The lags over time, bucketed by deletion start, for the chart (buckets without deletions are absent). */
export function lagSeries(
  lags: readonly ClientLag[],
  fromMs: number,
  bucketMs: number,
): LagPoint[] {
  if (bucketMs <= 0) throw new Error(`lagSeries: bucketMs must be positive, got ${bucketMs}`);
  const buckets = new Map<number, number[]>();
  for (const l of lags) {
    const start = fromMs + Math.floor((l.deletionStartedAt - fromMs) / bucketMs) * bucketMs;
    const list = buckets.get(start) ?? [];
    list.push(l.lagMs);
    buckets.set(start, list);
  }
  return [...buckets.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([start, v]) => {
      const s = [...v].sort((a, b) => a - b);
      return {
        start,
        maxLagMs: s[s.length - 1] ?? 0,
        medianLagMs: s[Math.floor((s.length - 1) / 2)] ?? 0,
        pairs: s.length,
      };
    });
}
