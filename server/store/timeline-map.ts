/**
 * Pure mapping from the history store's records (server/store: snapshots, transitions, recorded
 * events) to what the Timelines analysis reads (lib/timeline's Transition, wire-shaped Pod and
 * KubeEvent, DeletedPodRecord). No I/O.
 */
import type { KubeEvent } from '../../lib/kube/types';
import type { Transition } from '../../lib/timeline/types';
import type { RecordedKubeEvent } from './kube-events';
import type { PodSnapshot, StoredTransition as StoreTransition } from './reader';
import type { DeletedPodRecord } from '../../lib/timeline/pod-history';

/** Epoch ms -> RFC 3339; null for missing or out-of-range values (never throws). */
function toIso(ms: number | null | undefined): string | null {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return null;
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

const CONDITION_FIELDS = ['condition:ContainersReady', 'condition:Ready'];

function boolOf(v: string | null): boolean | null {
  return v === 'true' ? true : v === 'false' ? false : null;
}

function numOf(v: string | null): number | null {
  if (v === null || v.trim() === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

/** A ContainersReady/Ready condition turning True in the same observation, with its time. */
function conditionTimeIn(batch: readonly StoreTransition[]): number | null {
  for (const field of CONDITION_FIELDS) {
    const c = batch.find(
      (t) => t.container === null && t.field === field && t.newValue === 'True' && t.reportedAt,
    );
    if (c?.reportedAt) return c.reportedAt;
  }
  return null;
}

export interface MappedTransitions {
  transitions: Transition[];
  /** Store rows that carry no change the analysis can place (first sightings of ready etc.). */
  skipped: number;
}

/**
 * Maps one pod's store transitions (ordered by observation) to lib/timeline transitions:
 * - `state` -> `running` with the kubelet's startedAt becomes a `startedAt` transition (state clock);
 * - `ready` flips keep the watch receipt time (observer clock); one seen on a relist gets the
 *   ContainersReady/Ready time of the same observation, else bounds (previous observation .. now);
 * - a first sighting (no old value) of ready/started/restartCount is not a change: skipped, counted
 *   (its time would be when meshdx first looked, not when the container became ready);
 * - everything else (conditions, phase, terminated states...) is kept under its own field name.
 */
export function mapStoreTransitions(
  podUid: string | null,
  rows: readonly StoreTransition[],
): MappedTransitions {
  const out: Transition[] = [];
  let skipped = 0;
  const uid = podUid ?? '';
  const byObs = new Map<number, StoreTransition[]>();
  for (const r of rows) byObs.set(r.observedAt, [...(byObs.get(r.observedAt) ?? []), r]);
  let prevObs: number | null = null;
  const restarts = new Map<string, number>();
  for (const [obs, batch] of [...byObs.entries()].sort((a, b) => a[0] - b[0])) {
    for (const r of batch) {
      if (r.container !== null && r.field === 'restartCount') {
        const n = numOf(r.newValue);
        if (n !== null) restarts.set(r.container, n);
      }
    }
    for (const r of batch) {
      const t = mapOne(uid, r, batch, prevObs, restarts);
      if (t) out.push(t);
      else skipped++;
    }
    prevObs = obs;
  }
  return { transitions: out, skipped };
}

function mapOne(
  podUid: string,
  r: StoreTransition,
  batch: readonly StoreTransition[],
  prevObs: number | null,
  restarts: ReadonlyMap<string, number>,
): Transition | null {
  const container = r.container ?? '';
  const observed = toIso(r.observedAt);
  if (!observed) return null;
  const watched = r.via === 'watch';
  const firstSighting = r.oldValue === null;

  if (r.field === 'state') {
    if (r.newValue === 'running' && r.reportedAt !== null) {
      // First sighting of a container that restarted twice or more: this is not its first run.
      if (firstSighting && (restarts.get(container) ?? 0) > 1) return null;
      const at = toIso(r.reportedAt);
      if (!at) return null;
      return { time: at, podUid, container, field: 'startedAt', value: at, timeSource: 'state' };
    }
    const at = toIso(r.reportedAt);
    return at
      ? { time: at, podUid, container, field: 'state', value: r.newValue, timeSource: 'state' }
      : { time: observed, podUid, container, field: 'state', value: r.newValue };
  }

  if (r.field === 'ready' || r.field === 'started') {
    const value = boolOf(r.newValue);
    if (firstSighting || value === null) return null;
    if (watched)
      return { time: observed, podUid, container, field: r.field, value, timeSource: 'observed' };
    const cond = value ? toIso(conditionTimeIn(batch)) : null;
    if (cond)
      return { time: cond, podUid, container, field: r.field, value, timeSource: 'condition' };
    const lo = toIso(prevObs);
    return {
      time: observed,
      podUid,
      container,
      field: r.field,
      value,
      timeSource: 'bounded',
      ...(lo ? { notBefore: lo } : {}),
    };
  }

  if (r.field === 'restartCount') {
    const value = numOf(r.newValue);
    if (firstSighting || value === null) return null;
    if (watched)
      return { time: observed, podUid, container, field: r.field, value, timeSource: 'observed' };
    const fin = toIso(r.reportedAt);
    return fin
      ? { time: fin, podUid, container, field: r.field, value, timeSource: 'state' }
      : { time: observed, podUid, container, field: r.field, value, timeSource: 'bounded' };
  }

  // Pod-level fields (conditions, phase, deletionTimestamp) and anything newer: kept as they are.
  const at = toIso(r.reportedAt);
  return at
    ? { time: at, podUid, container, field: r.field, value: r.newValue, timeSource: 'condition' }
    : {
        time: observed,
        podUid,
        container,
        field: r.field,
        value: r.newValue,
        timeSource: 'observed',
      };
}

/**
 * A recorded event occurrence as a wire-shaped Event. The store keeps one row per occurrence
 * count of an Event, so one Event seen with counts 1..3 comes back as three occurrences, each
 * with its own last time (the proxy-ready estimate wants the last failure before ready).
 */
export function recordedToKubeEvent(e: RecordedKubeEvent, index: number): KubeEvent {
  const first = toIso(e.firstTimestamp);
  const last = toIso(e.lastTimestamp) ?? first ?? toIso(e.observedAt);
  const involved: KubeEvent['involvedObject'] = {};
  if (e.involvedKind) involved.kind = e.involvedKind;
  if (e.name) involved.name = e.name;
  if (e.namespace) involved.namespace = e.namespace;
  if (e.involvedUid) involved.uid = e.involvedUid;
  if (e.fieldPath) involved.fieldPath = e.fieldPath;
  return {
    metadata: {
      name: `${e.name ?? 'event'}.${e.reason ?? 'unknown'}.${index}`,
      ...(e.namespace ? { namespace: e.namespace } : {}),
    },
    involvedObject: involved,
    ...(e.reason ? { reason: e.reason } : {}),
    ...(e.message !== null ? { message: e.message } : {}),
    ...(e.type ? { type: e.type } : {}),
    count: e.count,
    firstTimestamp: first,
    lastTimestamp: last,
    ...(e.source ? { source: { component: e.source } } : {}),
  };
}

/** A deleted pod's snapshot as the Timelines' record; null when the stored object is unreadable. */
export function snapshotToDeleted(s: PodSnapshot): DeletedPodRecord | null {
  if (!s.object || s.deletedAt === null) return null;
  const deletedAt = toIso(s.deletedAt);
  if (!deletedAt) return null;
  return { pod: s.object, deletedAt, uncertain: s.deletedUncertain };
}
