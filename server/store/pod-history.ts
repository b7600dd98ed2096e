/**
 * The runtime's PodHistory: live pods are the cluster cache's (the watch's current objects);
 * pods that were, their transitions and their events are the history store's, its only record
 * of them. Every store read commits what the recorder has pending first, and the recorder hears
 * the same feed as the cache in the same turn, so what a request reads of the two agrees.
 * Every read brings the copy up to date first (sync): it reads only what changed since the last
 * read, nothing at all when the store recorded nothing (readers never sync it themselves).
 */
import type { KubeEvent, Pod } from '../../lib/kube/types';
import type { DeletedPodRecord, PodHistory } from '../../lib/timeline/pod-history';
import type { Transition } from '../../lib/timeline/types';
import { diffPod } from '../../lib/timeline/watch';
import type { ClusterCache } from '../cache/cluster-cache';
import type { HistoryStore } from './history-store';
import type { RecordedKubeEvent } from './kube-events';
import { storePodKey } from './rows';
import { mapStoreTransitions, recordedToKubeEvent, snapshotToDeleted } from './timeline-map';

/** What is read of the runtime's cluster cache: its live pods. */
type LivePods = Pick<ClusterCache, 'livePods' | 'findLive'>;

export interface StorePodHistoryOptions {
  /** Deleted pods listed (newest deletions first); older ones are counted as evicted. Default 20,000. */
  maxDeleted?: number;
  /** A deleted pod's events and transitions are re-read while its deletion is this recent (ms). Default 10 min. */
  settleMs?: number;
  /** The deleted list is re-read in full this often (retention may have pruned it). Default 60 s. */
  fullReloadMs?: number;
  now?: () => Date;
}

export interface StorePodHistoryStats {
  deletedPods: number;
  evictedPods: number;
  /** Deleted pods whose stored object could not be read (counted, not listed). */
  unreadableSnapshots: number;
  /** Store transitions that carry no placeable change (first sightings), per last sync. */
  skippedTransitions: number;
}

interface PodData {
  gen: number;
  fingerprint: string;
  rev: number;
  transitions: Transition[];
  events: KubeEvent[];
  skipped: number;
}

const keyOf = (p: Pod) =>
  storePodKey(p.metadata.uid, p.metadata.namespace ?? 'default', p.metadata.name);

function eventId(e: RecordedKubeEvent): string {
  return [
    e.involvedUid,
    e.reason,
    e.fieldPath,
    e.count,
    e.firstTimestamp,
    e.lastTimestamp,
    e.message,
  ].join('|');
}

export class StorePodHistory implements PodHistory {
  private readonly deleted = new Map<string, DeletedPodRecord>();
  private readonly data = new Map<string, PodData>();
  private maxDeletedAt = 0;
  private lastFull = Number.NEGATIVE_INFINITY;
  private gen = -1;
  private evicted = 0;
  private unreadable = new Set<string>();
  private readonly opts: Required<Omit<StorePodHistoryOptions, 'now'>> & { now: () => Date };

  constructor(
    private readonly live: LivePods,
    private readonly store: HistoryStore,
    opts: StorePodHistoryOptions = {},
  ) {
    this.opts = {
      maxDeleted: opts.maxDeleted ?? 20_000,
      settleMs: opts.settleMs ?? 600_000,
      fullReloadMs: opts.fullReloadMs ?? 60_000,
      now: opts.now ?? (() => new Date()),
    };
  }

  /** A number that changes whenever the store records anything (fleet memo key). */
  generation(): number {
    const c = this.store.counts;
    return c.podEvents + c.kubeEvents + c.closedMissing;
  }

  /**
   * Reads the deletions recorded since the last call (all of them every fullReloadMs): what
   * every read method does first. Without a new record and before the next full reload it
   * costs a clock read and a sum.
   */
  private sync(): void {
    const now = this.opts.now().getTime();
    const gen = this.generation();
    const full = now - this.lastFull >= this.opts.fullReloadMs || now < this.lastFull;
    if (!full && gen === this.gen) return;
    this.gen = gen;
    if (full) {
      this.forgetGone();
      this.deleted.clear();
      this.unreadable.clear();
      this.maxDeletedAt = 0;
      this.evicted = 0;
      this.lastFull = now;
    }
    for (const s of this.store.deletedPods(this.maxDeletedAt)) {
      const rec = snapshotToDeleted(s);
      if (!rec) {
        this.unreadable.add(s.podKey);
        continue;
      }
      this.deleted.set(s.podKey, rec);
      if (s.deletedAt !== null && s.deletedAt > this.maxDeletedAt) this.maxDeletedAt = s.deletedAt;
    }
    this.evict();
  }

  /** Drops per-pod data of pods neither live nor listed as deleted. */
  private forgetGone(): void {
    const keep = new Set([...this.deleted.keys(), ...this.live.livePods().map(keyOf)]);
    for (const k of this.data.keys()) if (!keep.has(k)) this.data.delete(k);
  }

  private evict(): void {
    if (this.deleted.size <= this.opts.maxDeleted) return;
    const byAge = [...this.deleted.entries()].sort((a, b) =>
      a[1].deletedAt.localeCompare(b[1].deletedAt),
    );
    for (const [key] of byAge.slice(0, this.deleted.size - this.opts.maxDeleted)) {
      this.deleted.delete(key);
      this.data.delete(key);
      this.evicted++;
    }
  }

  livePods(): Pod[] {
    this.sync();
    return this.live.livePods().filter((p) => !this.deleted.has(keyOf(p)));
  }

  deletedPods(): DeletedPodRecord[] {
    this.sync();
    return [...this.deleted.values()];
  }

  findPod(namespace: string, name: string): { pod: Pod; deleted: DeletedPodRecord | null } | null {
    this.sync();
    const live = this.live.findLive(namespace, name);
    if (live && !this.deleted.has(keyOf(live))) return { pod: live, deleted: null };
    const snap = this.store.podSnapshot(namespace, name);
    if (snap?.object) {
      const rec = snapshotToDeleted(snap);
      if (rec) return { pod: rec.pod, deleted: rec };
      // recorded as live but not (yet) in this cache: a user's own watch still listing
      if (!live) return { pod: snap.object, deleted: null };
    }
    return live ? { pod: live, deleted: null } : null;
  }

  /**
   * The pod of this namespace and name with this uid, live or as the store kept it (an earlier
   * pod of the name, replaced by a namesake); null when neither has it.
   */
  findIncarnation(
    namespace: string,
    name: string,
    uid: string,
  ): { pod: Pod; deleted: DeletedPodRecord | null } | null {
    this.sync();
    const live = this.live.findLive(namespace, name);
    if (live && live.metadata.uid === uid && !this.deleted.has(keyOf(live)))
      return { pod: live, deleted: null };
    const snap = this.store.podSnapshotByUid(uid);
    if (!snap?.object || snap.namespace !== namespace || snap.name !== name) return null;
    const rec = snapshotToDeleted(snap);
    // kept but not (yet) recorded as deleted, and not the live one: not known to be either
    return rec ? { pod: rec.pod, deleted: rec } : null;
  }

  transitions(pod: Pod): Transition[] {
    this.sync();
    return this.read(pod).transitions;
  }

  eventsFor(pod: Pod): KubeEvent[] {
    this.sync();
    return this.read(pod).events;
  }

  revision(pod: Pod): number {
    this.sync();
    return this.read(pod).rev;
  }

  stats(): StorePodHistoryStats {
    this.sync();
    let skipped = 0;
    for (const d of this.data.values()) skipped += d.skipped;
    return {
      deletedPods: this.deleted.size,
      evictedPods: this.evicted,
      unreadableSnapshots: this.unreadable.size,
      skippedTransitions: skipped,
    };
  }

  /** The pod's store data, re-read when the store changed (deleted pods only while settling). */
  private read(pod: Pod): PodData {
    const key = keyOf(pod);
    const have = this.data.get(key);
    if (have && (have.gen === this.gen || this.settled(key))) return have;
    const fresh = this.fetch(pod);
    const fingerprint = `${fresh.transitions.length}|${fresh.events.length}|${fresh.last}|${fresh.derivedFrom ?? ''}`;
    const changed = !have || have.fingerprint !== fingerprint;
    const next: PodData = {
      gen: this.gen,
      fingerprint,
      rev: changed ? (have?.rev ?? 0) + 1 : have.rev,
      transitions: changed ? fresh.transitions : have.transitions,
      events: changed ? fresh.events : have.events,
      skipped: fresh.skipped,
    };
    this.data.set(key, next);
    return next;
  }

  private settled(key: string): boolean {
    const d = this.deleted.get(key);
    return (
      d !== undefined && this.opts.now().getTime() - Date.parse(d.deletedAt) > this.opts.settleMs
    );
  }

  private fetch(pod: Pod): {
    transitions: Transition[];
    events: KubeEvent[];
    skipped: number;
    last: number;
    /** The resourceVersion of the pod the transitions were derived from, when they were. */
    derivedFrom: string | null;
  } {
    const m = pod.metadata;
    const ns = m.namespace ?? 'default';
    const rows = this.store.transitions(keyOf(pod));
    const mapped = mapStoreTransitions(m.uid ?? null, rows);
    const recorded = new Map<string, RecordedKubeEvent>();
    for (const e of [
      ...(m.uid ? this.store.eventsFor(m.uid) : []),
      ...this.store.eventsForObject(ns, m.name),
    ]) {
      // Filed by name but about another pod of the same name (an earlier one): not this pod's.
      if (m.uid && e.involvedUid && e.involvedUid !== m.uid) continue;
      recorded.set(eventId(e), e);
    }
    let last = 0;
    for (const r of rows) last = Math.max(last, r.observedAt);
    for (const e of recorded.values()) last = Math.max(last, e.observedAt);
    const events = [...recorded.values()].map((e, i) => recordedToKubeEvent(e, i));
    // A pod first seen on a list and unchanged since has no recorded change: what its object
    // itself tells (the kubelet's start times) is its history, derived, not kept.
    const derive = mapped.transitions.length === 0;
    return {
      transitions: derive ? diffPod(undefined, pod) : mapped.transitions,
      events,
      skipped: mapped.skipped,
      last,
      derivedFrom: derive ? (m.resourceVersion ?? '') : null,
    };
  }
}
