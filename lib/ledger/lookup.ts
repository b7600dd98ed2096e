import type { HolderState, IpLookup, PodInterval } from './types';
import { podKeyOf } from '../refs/pod-ref';

/**
 * How long after its last holder was gone a free IP is still blamed on it (a `terminated`
 * holder, a phantom) when the caller names no tolerance: every history's and every
 * attribution's default.
 */
export const DEFAULT_GAP_TOLERANCE_MS = 5 * 60_000;

/** How far back from the newest interval starting before t a lookup looks for a holder. */
const SCAN_BACK = 16;

/**
 * End of the holding: goneAt; when goneAt is only an estimate (no DELETED time), the pod is
 * given until the end of its grace period, since kubelet stops it by then at the latest.
 */
export function endOf(i: PodInterval): number | null {
  return endFrom(i.goneAt, i.goneUncertain, i.graceEndsAt);
}

/** endOf() from the three fields it reads (for histories kept in columns). */
export function endFrom(
  goneAt: number | null,
  goneUncertain: boolean,
  graceEndsAt: number | null,
): number | null {
  if (goneAt === null) return null;
  return goneUncertain && graceEndsAt !== null ? Math.max(goneAt, graceEndsAt) : goneAt;
}

/**
 * One IP's intervals sorted by start, as a lookup reads them: an array of intervals
 * (arrayView) or columns of a larger table (see interval-table.ts). Only the interval that
 * a lookup reports is read whole.
 */
export interface SortedIntervalView {
  readonly length: number;
  from(k: number): number;
  /** endOf() of interval k. */
  end(k: number): number | null;
  goneAt(k: number): number | null;
  goneUncertain(k: number): boolean;
  /** Its start was seen as it happened (fromSource 'event'), not estimated. */
  startSeen(k: number): boolean;
  deletionStartedAt(k: number): number | null;
  interval(k: number): PodInterval;
}

class ArrayView implements SortedIntervalView {
  constructor(private readonly list: readonly PodInterval[]) {}
  get length(): number {
    return this.list.length;
  }
  from(k: number): number {
    return (this.list[k] as PodInterval).from;
  }
  end(k: number): number | null {
    return endOf(this.list[k] as PodInterval);
  }
  goneAt(k: number): number | null {
    return (this.list[k] as PodInterval).goneAt;
  }
  goneUncertain(k: number): boolean {
    return (this.list[k] as PodInterval).goneUncertain;
  }
  startSeen(k: number): boolean {
    return (this.list[k] as PodInterval).fromSource === 'event';
  }
  deletionStartedAt(k: number): number | null {
    return (this.list[k] as PodInterval).deletionStartedAt;
  }
  interval(k: number): PodInterval {
    return this.list[k] as PodInterval;
  }
}

/** Index of the last interval with from <= t (binary search), or -1. */
export function lastStartingBefore(view: SortedIntervalView, t: number): number {
  let lo = 0;
  let hi = view.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (view.from(mid) <= t) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** lookupIn over a list of one IP's intervals sorted by start. */
export function lookupInSorted(
  ip: string,
  t: number,
  intervals: readonly PodInterval[],
  gapToleranceMs: number,
): IpLookup {
  return lookupIn(ip, t, new ArrayView(intervals), gapToleranceMs);
}

/**
 * What a lookup found, by position in the view: the interval it reports (-1 for none) and
 * the state it gives. lookupIn describes it; a caller that only needs the state and the
 * holder's row (a long --json report) uses it as is, without an object per holder.
 */
export interface Located {
  state: HolderState;
  /** The interval reported: the holder, or the last holder of a free IP; -1 for none. */
  index: number;
  afterTerminationMs: number | null;
  /**
   * For `unknown`: why. 'before-first': every known holder came later; 'none': no
   * interval at all or none around t; 'too-far': the last holder (index) was gone more
   * than the tolerance before t.
   */
  unknown: 'before-first' | 'none' | 'too-far' | null;
  /** For a free IP (terminated, too-far): how long before t its last holder was gone. */
  freeForMs: number;
}

/**
 * The holder of an IP at time t, given the IP's intervals sorted by start.
 * - An interval covering t: `live`, or `terminating` once its deletion has started.
 *   If two cover t (estimated starts overlap), the newer wins unless its start is only a
 *   lower bound and the older one has a certain end after t.
 * - None covering: the IP was free. The last holder gone at most gapToleranceMs before t is
 *   `terminated` (a phantom); beyond that, or with no earlier holder, `unknown`.
 */
export function locate(t: number, view: SortedIntervalView, gapToleranceMs: number): Located {
  const idx = lastStartingBefore(view, t);
  if (idx < 0)
    return found('unknown', -1, null, view.length > 0 ? 'before-first' : 'none', Number.NaN);
  let holder = -1;
  let lastGone = -1;
  let lastGoneEnd = -Infinity;
  let older = -1;
  for (let k = idx; k >= 0 && k > idx - SCAN_BACK; k--) {
    const end = view.end(k);
    if (end === null || t < end) {
      // covering t: the newest wins, unless its start is an estimate and an older one has
      // a certain end after t
      if (holder < 0) holder = k;
      else if (older < 0) {
        const gone = view.goneAt(k);
        if (gone !== null && !view.goneUncertain(k) && t < gone) older = k;
      }
    } else if (lastGone < 0 || end > lastGoneEnd) {
      lastGone = k;
      lastGoneEnd = end;
    }
  }
  if (holder >= 0 && !view.startSeen(holder) && older >= 0) holder = older;
  if (holder >= 0) {
    const started = view.deletionStartedAt(holder);
    return started !== null && t >= started
      ? found('terminating', holder, t - started, null, Number.NaN)
      : found('live', holder, null, null, Number.NaN);
  }
  if (lastGone >= 0) {
    const gap = t - lastGoneEnd;
    if (gap <= gapToleranceMs)
      return found(
        'terminated',
        lastGone,
        t - (view.deletionStartedAt(lastGone) ?? lastGoneEnd),
        null,
        gap,
      );
    return found('unknown', lastGone, null, 'too-far', gap);
  }
  return found('unknown', -1, null, 'none', Number.NaN);
}

function found(
  state: HolderState,
  index: number,
  afterTerminationMs: number | null,
  unknown: Located['unknown'],
  freeForMs: number,
): Located {
  return { state, index, afterTerminationMs, unknown, freeForMs };
}

/** locate() told as an IpLookup: the holder (an unknown state names none) and why. */
export function lookupIn(
  ip: string,
  t: number,
  view: SortedIntervalView,
  gapToleranceMs: number,
): IpLookup {
  const at = locate(t, view, gapToleranceMs);
  const { state, index, afterTerminationMs } = at;
  if (state === 'live' || state === 'terminating') {
    const h = view.interval(index);
    if (state === 'terminating')
      return lazy(
        ip,
        t,
        h,
        state,
        afterTerminationMs,
        () =>
          `deletion of ${podKeyOf(h)} started ${fmtMs(afterTerminationMs ?? 0)} before the request`,
      );
    return lazy(ip, t, h, state, null, () => {
      const estimate = h.fromSource === 'event' ? '' : ` (start estimated from ${h.fromSource})`;
      return `${podKeyOf(h)} held ${ip} since ${iso(h.from)}${estimate}`;
    });
  }
  if (index >= 0) {
    const g = view.interval(index);
    const gap = at.freeForMs;
    const who = () => podKeyOf(g);
    const uncertain = () => (g.goneUncertain ? ' (time of removal estimated)' : '');
    if (state === 'terminated')
      return lazy(
        ip,
        t,
        g,
        state,
        afterTerminationMs,
        () =>
          `${ip} was free; its last holder ${who()} was gone ${fmtMs(gap)} before the request${uncertain()}`,
      );
    return lazy(
      ip,
      t,
      null,
      'unknown',
      null,
      () =>
        `${ip} was free for ${fmtMs(gap)} before the request; last holder ${who()}${uncertain()} is too far back to blame`,
    );
  }
  if (at.unknown === 'before-first') {
    const next = view.interval(0);
    return lazy(
      ip,
      t,
      null,
      'unknown',
      null,
      () => `no pod known to hold ${ip} before ${iso(next.from)} (${podKeyOf(next)})`,
    );
  }
  return lazy(ip, t, null, 'unknown', null, () =>
    view.length > 0
      ? `no holder of ${ip} found around the request time`
      : `no pod known to have held ${ip}`,
  );
}

/**
 * A lookup whose `reason` text is only built when read: attribution of a long log reads it
 * for a handful of lines (the --json report does not print it at all). A class, not an
 * object literal with a getter: one is made for every failing request of a log.
 */
class Lookup implements IpLookup {
  readonly #why: () => string;
  constructor(
    readonly ip: string,
    readonly time: number,
    readonly holder: PodInterval | null,
    readonly state: HolderState,
    readonly afterTerminationMs: number | null,
    why: () => string,
  ) {
    this.#why = why;
  }
  get reason(): string {
    return this.#why();
  }
  toJSON(): Omit<IpLookup, never> {
    const { ip, time, holder, state, afterTerminationMs, reason } = this;
    return { ip, time, holder, state, afterTerminationMs, reason };
  }
}

function lazy(
  ip: string,
  time: number,
  holder: PodInterval | null,
  state: HolderState,
  afterTerminationMs: number | null,
  reason: () => string,
): IpLookup {
  return new Lookup(ip, time, holder, state, afterTerminationMs, reason);
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
