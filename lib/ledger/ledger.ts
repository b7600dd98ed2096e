import type { FromSource, IpLookup, PodEvent, PodInterval, PodObservation } from './types';
import { lookupInSorted } from './lookup';

/** Kubernetes' default terminationGracePeriodSeconds, used when a deleted pod names none. */
const DEFAULT_GRACE_SECONDS = 30;

interface PodTrack {
  latest: PodObservation;
  /** The pod was seen without an IP: the first timed sighting with one is when it got it. */
  sawWithoutIp: boolean;
  deletionStartedAt: number | null;
  graceEndsAt: number | null;
  gone: { at: number; uncertain: boolean } | null;
  lastSeenAt: number | null;
  /** The pod's IPs in the order first seen (a pod has one or two: no map per pod). */
  ips: string[];
  /** The first timed sighting with ips[k], null while none. */
  firstTimed: (number | null)[];
  /** Of its IPs, how many had no time at all when its intervals were last made. */
  untimed: number;
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
export class IpLedger {
  private readonly pods = new Map<string, PodTrack>();
  private readonly byIp = new Map<string, PodInterval[]>();
  /**
   * Pods changed since the index (byIp) was last made. Until it is first made, every pod is
   * new to it: nothing is noted per event then (a capture read only for eachInterval never
   * pays for an index it does not use).
   */
  private readonly dirtyPods = new Set<string>();
  private indexed = false;
  private readonly podIntervals = new Map<string, PodInterval[]>();
  /** The sum of every track's `untimed`. */
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
    const key = pod.uid ?? `${pod.namespace}/${pod.name}`;
    let track = this.pods.get(key);
    if (!track) {
      track = {
        latest: pod,
        sawWithoutIp: false,
        deletionStartedAt: null,
        graceEndsAt: null,
        gone: null,
        lastSeenAt: null,
        ips: [],
        firstTimed: [],
        untimed: 0,
      };
      this.pods.set(key, track);
    }
    if (event.time !== null && (track.lastSeenAt === null || event.time >= track.lastSeenAt))
      track.latest = pod;
    else if (event.time === null) track.latest = mergeLatest(track.latest, pod);
    if (event.time !== null) track.lastSeenAt = Math.max(track.lastSeenAt ?? -Infinity, event.time);
    if (pod.ips.length === 0 && event.type !== 'DELETED') track.sawWithoutIp = true;
    for (const ip of pod.ips) {
      let k = track.ips.indexOf(ip);
      if (k < 0 && track.ips.length === 0) {
        // made at their size: grown by push from empty, each would hold room for 17
        track.ips = [ip];
        track.firstTimed = [null];
        k = 0;
      } else if (k < 0) {
        k = track.ips.push(ip) - 1;
        track.firstTimed.push(null);
      }
      const first = track.firstTimed[k] ?? null;
      if (event.time !== null && (first === null || event.time < first))
        track.firstTimed[k] = event.time;
    }
    if (pod.deletionTimestamp !== null) {
      const grace =
        pod.deletionGracePeriodSeconds ??
        pod.terminationGracePeriodSeconds ??
        DEFAULT_GRACE_SECONDS;
      track.graceEndsAt = pod.deletionTimestamp;
      track.deletionStartedAt = pod.deletionTimestamp - grace * 1000;
    }
    if (event.type === 'DELETED') {
      if (event.time !== null) {
        track.gone = { at: event.time, uncertain: false };
      } else if (pod.exitedAt !== null && (!track.gone || track.gone.uncertain)) {
        // kubectl's watch output has no times: the final object's last container exit is
        // when the pod stopped answering on its IP (the API removal follows within moments)
        track.gone = { at: pod.exitedAt, uncertain: false };
      } else if (!track.gone || track.gone.uncertain) {
        const estimate = lastKnownTime(pod, track);
        if (estimate !== null)
          track.gone = { at: Math.max(estimate, track.gone?.at ?? -Infinity), uncertain: true };
      }
    }
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
  }

  /** Intervals of one IP, sorted by start. */
  history(ip: string): PodInterval[] {
    this.refresh();
    return [...(this.byIp.get(ip) ?? [])];
  }

  /** Who held `ip` at `time` (epoch ms), and in what state. See lookup.ts for the rules. */
  at(ip: string, time: number, gapToleranceMs = 5 * 60_000): IpLookup {
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

  private materialize(track: PodTrack): PodInterval[] {
    const pod = track.latest;
    const out: PodInterval[] = [];
    let untimed = 0;
    for (let k = 0; k < track.ips.length; k++) {
      const ip = track.ips[k] as string;
      const start = startOf(pod, track.sawWithoutIp, track.firstTimed[k] ?? null);
      if (!start) {
        untimed++;
        continue;
      }
      out.push({
        ip,
        namespace: pod.namespace,
        name: pod.name,
        uid: pod.uid,
        owner: pod.owner,
        node: pod.node,
        from: start.at,
        fromSource: start.source,
        deletionStartedAt: track.deletionStartedAt,
        graceEndsAt: track.graceEndsAt,
        goneAt: track.gone?.at ?? null,
        goneUncertain: track.gone?.uncertain ?? false,
        lastSeenAt: track.lastSeenAt,
      });
    }
    this.untimedTotal += untimed - track.untimed;
    track.untimed = untimed;
    return out;
  }
}

const byFrom = (a: PodInterval, b: PodInterval): number => a.from - b.from;

/**
 * Start of an interval: the first timed sighting with the IP when the pod was watched
 * getting it; otherwise a lower bound from the object (status.startTime, else the earliest
 * condition transition, else creationTimestamp), never later than a timed sighting.
 */
function startOf(
  pod: PodObservation,
  sawWithoutIp: boolean,
  firstTimed: number | null,
): { at: number; source: FromSource } | null {
  if (firstTimed !== null && sawWithoutIp) return { at: firstTimed, source: 'event' };
  // the first bound the object has, strongest first (no list of them made per interval)
  let at: number | null = pod.startTime;
  let source: FromSource = 'startTime';
  if (at === null) {
    at = pod.firstConditionTime;
    source = 'condition';
  }
  if (at === null) {
    at = pod.creationTimestamp;
    source = 'creationTimestamp';
  }
  if (at !== null)
    return firstTimed !== null && firstTimed < at
      ? { at: firstTimed, source: 'event' }
      : { at, source };
  return firstTimed !== null ? { at: firstTimed, source: 'event' } : null;
}

/** Without event times, the last known time of a deleted pod: its latest status time or deletion start. */
function lastKnownTime(pod: PodObservation, track: PodTrack): number | null {
  const candidates = [pod.latestTime, track.deletionStartedAt, track.lastSeenAt].filter(
    (t): t is number => t !== null,
  );
  return candidates.length ? Math.max(...candidates) : null;
}

/** Untimed observations: keep the one that knows more (a deletion, a later status). */
function mergeLatest(current: PodObservation, next: PodObservation): PodObservation {
  if ((next.latestTime ?? -Infinity) >= (current.latestTime ?? -Infinity))
    return { ...next, ips: next.ips.length ? next.ips : current.ips };
  return current;
}
