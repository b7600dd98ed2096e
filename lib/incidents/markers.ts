import type { PodInterval } from '../ledger/types';
import { endOf } from '../ledger/lookup';
import type { Marker, Rollout } from '../api/incidents';
import { podIdKey, podKeyOf } from '../refs/pod-ref';
import { workloadNameKey, workloadOfOwner } from '../refs/workload-ref';

export interface MarkerScope {
  fromMs: number;
  toMs: number;
  /** Only pods in these namespaces (empty: all). */
  namespaces: ReadonlySet<string>;
  max?: number;
}

function inScope(i: PodInterval, s: MarkerScope): boolean {
  return s.namespaces.size === 0 || s.namespaces.has(i.namespace);
}

/** Pod terminations (deletion started) and removals inside the window, one per pod, in time order. */
export function terminationMarkers(intervals: Iterable<PodInterval>, s: MarkerScope): Marker[] {
  const seen = new Set<string>();
  const out: Marker[] = [];
  for (const i of intervals) {
    if (!inScope(i, s)) continue;
    const key = podIdKey(i);
    if (seen.has(key)) continue;
    seen.add(key);
    const pod = podKeyOf(i);
    const workload = i.owner ? workloadOfOwner(i.owner, i).name : null;
    const start = i.deletionStartedAt;
    if (start !== null && start >= s.fromMs && start <= s.toMs)
      out.push({ kind: 'termination', at: iso(start), pod, workload });
    const end = endOf(i);
    if (end !== null && end >= s.fromMs && end <= s.toMs)
      out.push({ kind: 'gone', at: iso(end), pod, workload });
  }
  out.sort((a, b) => a.at.localeCompare(b.at) || a.pod.localeCompare(b.pod));
  return out.slice(0, s.max ?? 400);
}

/** A quiet spell this long between a workload's pod starts and deletions ends a rollout. */
export const ROLLOUT_GAP_MS = 2 * 60_000;

interface PodEvent {
  at: number;
  kind: 'start' | 'delete' | 'gone';
  replicaSet: string;
  pod: string;
}

/** Events of one rollout as it is being read: the new ReplicaSet(s) and the old ones. */
interface Segment {
  events: PodEvent[];
  fresh: Set<string>;
  old: Set<string>;
}

function rolloutOf(namespace: string, workload: string, seg: Segment): Rollout | null {
  const replaced = [...seg.old].some((o) => [...seg.fresh].some((f) => f !== o));
  if (!replaced) return null;
  const times = seg.events.map((e) => e.at);
  const pods = new Set(seg.events.filter((e) => e.kind === 'delete').map((e) => e.pod));
  const revision = [...seg.fresh].find((f) => !seg.old.has(f)) ?? null;
  return {
    namespace,
    workload,
    replicaSet: revision,
    from: iso(Math.min(...times)),
    to: iso(Math.max(...times)),
    pods: pods.size,
  };
}

/**
 * Rollouts, one band each: a workload's pods of one ReplicaSet terminate in the window while
 * pods of another (the new revision) start. A workload's starts and deletions are read in time
 * order and cut into rollouts where a new revision's first pod starts (the next rollout) or the
 * workload is quiet for ROLLOUT_GAP_MS; a band runs from its first start or deletion to its last
 * start or removal.
 */
export function rollouts(intervals: Iterable<PodInterval>, s: MarkerScope): Rollout[] {
  const byWorkload = new Map<string, { namespace: string; workload: string; events: PodEvent[] }>();
  for (const i of intervals) {
    if (!inScope(i, s) || i.owner?.kind !== 'ReplicaSet') continue;
    const workload = workloadOfOwner(i.owner, i).name;
    const key = workloadNameKey(i.namespace, workload);
    const w = byWorkload.get(key) ?? { namespace: i.namespace, workload, events: [] };
    byWorkload.set(key, w);
    const pod = podIdKey(i);
    const replicaSet = i.owner.name;
    const del = i.deletionStartedAt;
    if (del !== null && del >= s.fromMs && del <= s.toMs) {
      w.events.push({ at: del, kind: 'delete', replicaSet, pod });
      const end = endOf(i);
      if (end !== null) w.events.push({ at: end, kind: 'gone', replicaSet, pod });
    }
    if (i.from >= s.fromMs && i.from <= s.toMs && i.fromSource !== 'creationTimestamp')
      w.events.push({ at: i.from, kind: 'start', replicaSet, pod });
  }
  const out: Rollout[] = [];
  for (const { namespace, workload, events } of byWorkload.values()) {
    events.sort((a, b) => a.at - b.at);
    let seg: Segment = { events: [], fresh: new Set(), old: new Set() };
    const close = () => {
      const r = seg.events.length ? rolloutOf(namespace, workload, seg) : null;
      if (r) out.push(r);
      seg = { events: [], fresh: new Set(), old: new Set() };
    };
    for (const e of events) {
      const last = seg.events.at(-1);
      const nextRevision =
        e.kind === 'start' &&
        seg.fresh.size > 0 &&
        !seg.fresh.has(e.replicaSet) &&
        !seg.old.has(e.replicaSet) &&
        seg.old.size > 0;
      if (last && (e.at - last.at > ROLLOUT_GAP_MS || nextRevision)) close();
      seg.events.push(e);
      if (e.kind === 'start') seg.fresh.add(e.replicaSet);
      else seg.old.add(e.replicaSet);
    }
    close();
  }
  return out.sort((a, b) => a.from.localeCompare(b.from) || a.workload.localeCompare(b.workload));
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
