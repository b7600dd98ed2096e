/**
 * What meshdx has seen of pods while watching: the live pods, the last state of deleted ones
 * (kept, marked deleted, up to a bound; evictions are counted), and the container and condition
 * transitions between consecutive versions of each pod (lib/timeline's diffPod, with the receipt
 * time for live watch events). Pure bookkeeping: fed ObservedEvents, no I/O.
 */
import type { Pod } from '../../lib/kube/types';
import { diffPod } from '../../lib/timeline/watch';
import type { Transition } from '../../lib/timeline/types';
import type { ObservedEvent } from '../kube/listwatch';

export interface DeletedPod {
  pod: Pod;
  /** When meshdx saw the deletion (RFC 3339). */
  deletedAt: string;
  /** True when the deletion happened while no watch was open: deletedAt is an upper bound. */
  uncertain: boolean;
}

export interface PodHistoryOptions {
  /** Deleted pods kept in memory (oldest deletions are forgotten first). Default 20,000. */
  maxDeleted?: number;
  /** Transitions kept per pod (oldest dropped first, counted). Default 500. */
  maxTransitionsPerPod?: number;
}

const keyOf = (p: Pod): string =>
  p.metadata.uid ?? `${p.metadata.namespace ?? 'default'}/${p.metadata.name}`;
const nameKey = (namespace: string, name: string) => `${namespace}/${name}`;

export class PodHistory {
  private readonly live = new Map<string, Pod>();
  private readonly deleted = new Map<string, DeletedPod>();
  private readonly trans = new Map<string, Transition[]>();
  /**
   * Pods first seen on a list and unchanged since: the pod held is the one first seen, so its
   * first-sighting transitions are derived from it when asked instead of being kept (three or
   * four per pod, some 17 MB at 20,000 pods, for a fleet that mostly does not change). They are
   * made and kept at the pod's first change.
   */
  private readonly firstOnly = new Set<string>();
  private readonly rev = new Map<string, number>();
  private readonly maxDeleted: number;
  private readonly maxTrans: number;
  /** Deleted pods forgotten because of maxDeleted. */
  evicted = 0;
  /** Transitions dropped because of maxTransitionsPerPod. */
  droppedTransitions = 0;
  /** Bumped on every change. */
  version = 0;

  constructor(opts: PodHistoryOptions = {}) {
    this.maxDeleted = opts.maxDeleted ?? 20_000;
    this.maxTrans = opts.maxTransitionsPerPod ?? 500;
  }

  apply(ev: ObservedEvent<Pod>): void {
    const pod = ev.object;
    if (!pod?.metadata?.name) return;
    const key = keyOf(pod);
    const prev = this.live.get(key) ?? this.deleted.get(key)?.pod;
    const observedAt = ev.via === 'watch' ? ev.observedAt.toISOString() : undefined;
    if (!prev && !observedAt) this.firstOnly.add(key);
    else {
      if (prev && this.firstOnly.delete(key)) this.addTransitions(key, diffPod(undefined, prev));
      this.addTransitions(key, diffPod(prev, pod, observedAt));
    }
    if (ev.type === 'DELETED') {
      this.live.delete(key);
      this.deleted.delete(key);
      this.deleted.set(key, {
        pod,
        deletedAt: ev.observedAt.toISOString(),
        uncertain: ev.via !== 'watch',
      });
      this.evict();
    } else {
      this.deleted.delete(key);
      this.live.set(key, pod);
    }
    this.bump(key);
  }

  /** Marks a pod's inputs changed (e.g. a new event about it). */
  touch(key: string): void {
    if (this.live.has(key) || this.deleted.has(key)) this.bump(key);
  }

  livePods(): Pod[] {
    return [...this.live.values()];
  }

  deletedPods(): DeletedPod[] {
    return [...this.deleted.values()];
  }

  /** A pod by namespace/name: the live one, else the most recently deleted one of that name. */
  find(namespace: string, name: string): { pod: Pod; deleted: DeletedPod | null } | null {
    for (const p of this.live.values()) {
      if (p.metadata.name === name && (p.metadata.namespace ?? 'default') === namespace)
        return { pod: p, deleted: null };
    }
    let best: DeletedPod | null = null;
    for (const d of this.deleted.values()) {
      const m = d.pod.metadata;
      if (nameKey(m.namespace ?? 'default', m.name) !== nameKey(namespace, name)) continue;
      if (!best || d.deletedAt > best.deletedAt) best = d;
    }
    return best ? { pod: best.pod, deleted: best } : null;
  }

  transitions(key: string): Transition[] {
    if (this.firstOnly.has(key)) {
      const pod = this.live.get(key) ?? this.deleted.get(key)?.pod;
      return pod ? diffPod(undefined, pod) : [];
    }
    return this.trans.get(key) ?? [];
  }

  /** Changes whenever anything the pod's analysis reads changes. */
  revision(key: string): number {
    return this.rev.get(key) ?? 0;
  }

  private bump(key: string): void {
    this.version++;
    this.rev.set(key, (this.rev.get(key) ?? 0) + 1);
  }

  private addTransitions(key: string, add: Transition[]): void {
    if (add.length === 0) return;
    const list = this.trans.get(key) ?? [];
    list.push(...add);
    if (list.length > this.maxTrans) {
      this.droppedTransitions += list.length - this.maxTrans;
      list.splice(0, list.length - this.maxTrans);
    }
    this.trans.set(key, list);
  }

  private evict(): void {
    while (this.deleted.size > this.maxDeleted) {
      const oldest = this.deleted.keys().next();
      if (oldest.done) return;
      this.deleted.delete(oldest.value);
      this.trans.delete(oldest.value);
      this.firstOnly.delete(oldest.value);
      this.rev.delete(oldest.value);
      this.evicted++;
    }
  }
}

export { keyOf as podKey };
