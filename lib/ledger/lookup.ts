import type { IpLookup, PodInterval } from './types';

/** How far back from the newest interval starting before t a lookup looks for a holder. */
const SCAN_BACK = 16;

/** Index of the last interval with from <= t (binary search), or -1. */
export function lastStartingBefore(intervals: readonly PodInterval[], t: number): number {
  let lo = 0;
  let hi = intervals.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((intervals[mid] as PodInterval).from <= t) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/**
 * End of the holding: goneAt; when goneAt is only an estimate (no DELETED time), the pod is
 * given until the end of its grace period, since kubelet stops it by then at the latest.
 */
export function endOf(i: PodInterval): number | null {
  if (i.goneAt === null) return null;
  return i.goneUncertain && i.graceEndsAt !== null ? Math.max(i.goneAt, i.graceEndsAt) : i.goneAt;
}

function covers(i: PodInterval, t: number): boolean {
  const end = endOf(i);
  return end === null || t < end;
}

/**
 * The holder of an IP at time t, given the IP's intervals sorted by start.
 * - An interval covering t: `live`, or `terminating` once its deletion has started.
 *   If two cover t (estimated starts overlap), the newer wins unless its start is only a
 *   lower bound and the older one has a certain end after t.
 * - None covering: the IP was free. The last holder gone at most gapToleranceMs before t is
 *   `terminated` (a phantom); beyond that, or with no earlier holder, `unknown`.
 */
export function lookupInSorted(
  ip: string,
  t: number,
  intervals: readonly PodInterval[],
  gapToleranceMs: number,
): IpLookup {
  const idx = lastStartingBefore(intervals, t);
  if (idx < 0) {
    const next = intervals[0];
    const reason = next
      ? `no pod known to hold ${ip} before ${iso(next.from)} (${next.namespace}/${next.name})`
      : `no pod known to have held ${ip}`;
    return { ip, time: t, holder: null, state: 'unknown', afterTerminationMs: null, reason };
  }
  const covering: PodInterval[] = [];
  let lastGone: PodInterval | null = null;
  for (let k = idx; k >= 0 && k > idx - SCAN_BACK; k--) {
    const i = intervals[k] as PodInterval;
    if (covers(i, t)) covering.push(i);
    else if (!lastGone || (endOf(i) ?? -Infinity) > (endOf(lastGone) ?? -Infinity)) lastGone = i;
  }
  const holder = pickCovering(covering, t);
  if (holder) {
    const started = holder.deletionStartedAt;
    if (started !== null && t >= started) {
      return {
        ip,
        time: t,
        holder,
        state: 'terminating',
        afterTerminationMs: t - started,
        reason: `deletion of ${holder.namespace}/${holder.name} started ${fmtMs(t - started)} before the request`,
      };
    }
    const estimate =
      holder.fromSource === 'event' ? '' : ` (start estimated from ${holder.fromSource})`;
    return {
      ip,
      time: t,
      holder,
      state: 'live',
      afterTerminationMs: null,
      reason: `${holder.namespace}/${holder.name} held ${ip} since ${iso(holder.from)}${estimate}`,
    };
  }
  const lastEnd = lastGone ? endOf(lastGone) : null;
  if (lastGone && lastEnd !== null) {
    const gap = t - lastEnd;
    const who = `${lastGone.namespace}/${lastGone.name}`;
    const uncertain = lastGone.goneUncertain ? ' (time of removal estimated)' : '';
    if (gap <= gapToleranceMs) {
      const after = t - (lastGone.deletionStartedAt ?? lastEnd);
      return {
        ip,
        time: t,
        holder: lastGone,
        state: 'terminated',
        afterTerminationMs: after,
        reason: `${ip} was free; its last holder ${who} was gone ${fmtMs(gap)} before the request${uncertain}`,
      };
    }
    return {
      ip,
      time: t,
      holder: null,
      state: 'unknown',
      afterTerminationMs: null,
      reason: `${ip} was free for ${fmtMs(gap)} before the request; last holder ${who}${uncertain} is too far back to blame`,
    };
  }
  return {
    ip,
    time: t,
    holder: null,
    state: 'unknown',
    afterTerminationMs: null,
    reason: `no holder of ${ip} found around the request time`,
  };
}

function pickCovering(covering: PodInterval[], t: number): PodInterval | null {
  const newest = covering[0];
  if (!newest) return null;
  if (newest.fromSource !== 'event') {
    const older = covering.find(
      (i) => i !== newest && i.goneAt !== null && !i.goneUncertain && t < i.goneAt,
    );
    if (older) return older;
  }
  return newest;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export function fmtMs(ms: number): string {
  const abs = Math.abs(ms);
  if (abs < 1000) return `${ms}ms`;
  if (abs < 120_000) return `${(ms / 1000).toFixed(1)}s`;
  return `${(ms / 60_000).toFixed(1)}min`;
}
