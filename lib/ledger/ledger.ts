import type { IpHistory } from './ip-history';
import type { IpLookup, PodEvent, PodInterval } from './types';
import { PodIpTrack } from './pod-track';
import { DEFAULT_GAP_TOLERANCE_MS, lookupInSorted } from './lookup';
import { podIdKey } from '../refs/pod-ref';

/** Pod IPs left out because nothing tells when their pod held them: a count and the first few. */
export interface UntimedPodIps {
  count: number;
  first: { namespace: string; name: string; ip: string }[];
}

export interface LedgerCounts {
  events: number;
  hostNetworkSkipped: number;
  /** Pod IPs for which no time at all is known: they cannot be placed and are left out. */
  untimed: number;
}

/**
 * Pod IP history: for every pod IP the interval during which one pod held it. Feed pod events
 * in any order (each event only widens what is known, so order does not change the result);
 * query with at(ip, time). Pod IPs are reused, so a lookup always goes by (ip, time).
 */
export class IpLedger implements IpHistory {
  private readonly pods = new Map<string, PodIpTrack>();
  private readonly byIp = new Map<string, PodInterval[]>();
  /**
   * Pods changed since the index (byIp) was last made. Until it is first made, every pod is
   * new to it: nothing is noted per event then (a capture read only for eachInterval never
   * pays for an index it does not use).
   */
  private readonly dirtyPods = new Set<string>();
  private indexed = false;
  private readonly podIntervals = new Map<string, PodInterval[]>();
  /** How many IPs of all tracks are untimed (the sum of their `untimedIps`). */
  private untimedTotal = 0;
  readonly counts: LedgerCounts = { events: 0, hostNetworkSkipped: 0, untimed: 0 };

  /** Records one pod event. */
  add(event: PodEvent): this {
    this.counts.events++;
    const pod = event.pod;
    if (pod.hostNetwork) {
      this.counts.hostNetworkSkipped++;
      return this;
    }
    const key = podIdKey(pod);
    let track = this.pods.get(key);
    if (!track) {
      track = new PodIpTrack(pod);
      this.pods.set(key, track);
    }
    track.add(event);
    if (this.indexed) this.dirtyPods.add(key);
    return this;
  }

  addAll(events: Iterable<PodEvent>): this {
    for (const e of events) this.add(e);
    return this;
  }

  /** All intervals, sorted by IP then start. */
  intervals(): PodInterval[] {
    this.refresh();
    const out: PodInterval[] = [];
    for (const ip of [...this.byIp.keys()].sort()) out.push(...(this.byIp.get(ip) ?? []));
    return out;
  }

  /**
   * Every interval, pod by pod in the order the pods were first seen, made as they are asked
   * for and not kept. Sorted stably by start within each IP, they are in the order lookups
   * see them when the ledger has not been asked anything while its events were added (a
   * lookup in between orders a pod seen again after the others that start at the same time).
   */
  *eachInterval(): Generator<PodInterval> {
    for (const track of this.pods.values()) yield* this.materialize(track);
  }

  /**
   * eachInterval's intervals in its order, handed to `visit`: without a generator's step per
   * interval, a capture's 50,000 intervals are walked in a fraction of the time.
   */
  forEachInterval(visit: (interval: PodInterval) => void): void {
    for (const track of this.pods.values()) {
      const intervals = this.materialize(track);
      for (let k = 0; k < intervals.length; k++) visit(intervals[k] as PodInterval);
    }
    this.counts.untimed = this.untimedTotal;
  }

  /**
   * The pod IPs left out of the intervals made last (by forEachInterval or a lookup) because
   * no time at all is known for them: no event time, status.startTime, condition transition
   * or creationTimestamp. A lookup of such an IP finds no pod; this says why.
   */
  untimedPodIps(max = 10): UntimedPodIps {
    const first: UntimedPodIps['first'] = [];
    let count = 0;
    for (const track of this.pods.values())
      for (const ip of track.untimedIps) {
        count++;
        if (first.length < max)
          first.push({ namespace: track.latest.namespace, name: track.latest.name, ip });
      }
    return { count, first };
  }

  /** Intervals of one IP, sorted by start. */
  history(ip: string): PodInterval[] {
    this.refresh();
    return [...(this.byIp.get(ip) ?? [])];
  }

  /** Who held `ip` at `time` (epoch ms), and in what state. See lookup.ts for the rules. */
  at(ip: string, time: number, gapToleranceMs = DEFAULT_GAP_TOLERANCE_MS): IpLookup {
    this.refresh();
    return lookupInSorted(ip, time, this.byIp.get(ip) ?? [], gapToleranceMs);
  }

  get size(): number {
    this.refresh();
    let n = 0;
    for (const list of this.byIp.values()) n += list.length;
    return n;
  }

  private refresh(): void {
    if (this.indexed && this.dirtyPods.size === 0) return;
    const dirty = this.indexed ? this.dirtyPods : this.pods.keys();
    this.indexed = true;
    const touched = new Set<string>();
    for (const key of dirty) {
      const had = this.podIntervals.get(key);
      if (had)
        for (const old of had) {
          const list = this.byIp.get(old.ip);
          if (list)
            this.byIp.set(
              old.ip,
              list.filter((i) => i !== old),
            );
          touched.add(old.ip);
        }
      const track = this.pods.get(key);
      const fresh = track ? this.materialize(track) : [];
      this.podIntervals.set(key, fresh);
      for (const interval of fresh) {
        const list = this.byIp.get(interval.ip);
        if (list) {
          list.push(interval);
          touched.add(interval.ip);
        } else this.byIp.set(interval.ip, [interval]);
      }
    }
    this.dirtyPods.clear();
    this.counts.untimed = this.untimedTotal;
    // a list made of one interval here needs no sort; one that had others or grew is sorted
    for (const ip of touched) this.byIp.get(ip)?.sort(byFrom);
  }

  private materialize(track: PodIpTrack): PodInterval[] {
    const before = track.untimedIps.length;
    const out = track.materialize();
    this.untimedTotal += track.untimedIps.length - before;
    return out;
  }
}

const byFrom = (a: PodInterval, b: PodInterval): number => a.from - b.from;
