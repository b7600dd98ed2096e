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

/**
 * Rollouts: a workload whose pods of one ReplicaSet terminated in the window while pods of
 * another ReplicaSet started in it. The span runs from the first of those starts/deletions to
 * the last removal or start.
 */
export function rollouts(intervals: Iterable<PodInterval>, s: MarkerScope): Rollout[] {
  type Acc = {
    namespace: string;
    workload: string;
    old: Set<string>;
    fresh: Set<string>;
    times: number[];
    pods: Set<string>;
  };
  const byWorkload = new Map<
    string,
    { namespace: string; workload: string; sets: Map<string, PodInterval[]> }
  >();
  for (const i of intervals) {
    if (!inScope(i, s) || i.owner?.kind !== 'ReplicaSet') continue;
    const workload = workloadOfOwner(i.owner, i).name;
    const key = workloadNameKey(i.namespace, workload);
    const w = byWorkload.get(key) ?? { namespace: i.namespace, workload, sets: new Map() };
    const list = w.sets.get(i.owner.name) ?? [];
    list.push(i);
    w.sets.set(i.owner.name, list);
    byWorkload.set(key, w);
  }
  const out: Rollout[] = [];
  for (const { namespace, workload, sets } of byWorkload.values()) {
    const acc: Acc = {
      namespace,
      workload,
      old: new Set(),
      fresh: new Set(),
      times: [],
      pods: new Set(),
    };
    for (const [rsName, list] of sets) {
      for (const i of list) {
        const del = i.deletionStartedAt;
        if (del !== null && del >= s.fromMs && del <= s.toMs) {
          acc.old.add(rsName);
          acc.pods.add(i.name);
          acc.times.push(del);
          const end = endOf(i);
          if (end !== null) acc.times.push(end);
        }
        if (i.from >= s.fromMs && i.from <= s.toMs && i.fromSource !== 'creationTimestamp') {
          acc.fresh.add(rsName);
          acc.times.push(i.from);
        }
      }
    }
    const replaced = [...acc.old].some((o) => [...acc.fresh].some((f) => f !== o));
    if (!replaced || acc.times.length === 0) continue;
    out.push({
      namespace: acc.namespace,
      workload: acc.workload,
      from: iso(Math.min(...acc.times)),
      to: iso(Math.max(...acc.times)),
      pods: acc.pods.size,
    });
  }
  return out.sort((a, b) => a.from.localeCompare(b.from));
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
