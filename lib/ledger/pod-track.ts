import type { FromSource, PodEvent, PodInterval, PodObservation } from './types';

const NO_IPS: readonly string[] = [];

/** Kubernetes' default terminationGracePeriodSeconds, used when a deleted pod names none. */
const DEFAULT_GRACE_SECONDS = 30;

/**
 * What is known of one pod's IPs: the ledger's rules for one pod. IpLedger keeps one per pod
 * and indexes their intervals by IP; the history recorder keeps one per watched pod (without
 * an index: a pod's own intervals are all it writes), so a pod costs one small object, not a
 * ledger's maps.
 */
export class PodIpTrack {
  latest: PodObservation;
  /** The pod was seen without an IP: the first timed sighting with one is when it got it. */
  sawWithoutIp = false;
  deletionStartedAt: number | null = null;
  graceEndsAt: number | null = null;
  gone: { at: number; uncertain: boolean } | null = null;
  lastSeenAt: number | null = null;
  /** The pod's IPs in the order first seen (a pod has one or two: no map per pod). */
  ips: string[] = [];
  /** The first timed sighting with ips[k], null while none. */
  firstTimed: (number | null)[] = [];
  /** Its IPs that had no time at all when its intervals were last made (empty, and shared, for nearly every pod). */
  untimedIps: readonly string[] = NO_IPS;

  constructor(pod: PodObservation) {
    this.latest = pod;
  }

  /** Records one event of this pod (a hostNetwork pod has no pod IP: the caller skips it). */
  add(event: PodEvent): void {
    const pod = event.pod;
    if (event.time !== null && (this.lastSeenAt === null || event.time >= this.lastSeenAt))
      this.latest = pod;
    else if (event.time === null) this.latest = mergeLatest(this.latest, pod);
    if (event.time !== null) this.lastSeenAt = Math.max(this.lastSeenAt ?? -Infinity, event.time);
    if (pod.ips.length === 0 && event.type !== 'DELETED') this.sawWithoutIp = true;
    for (const ip of pod.ips) {
      let k = this.ips.indexOf(ip);
      if (k < 0 && this.ips.length === 0) {
        // made at their size: grown by push from empty, each would hold room for 17
        this.ips = [ip];
        this.firstTimed = [null];
        k = 0;
      } else if (k < 0) {
        k = this.ips.push(ip) - 1;
        this.firstTimed.push(null);
      }
      const first = this.firstTimed[k] ?? null;
      if (event.time !== null && (first === null || event.time < first))
        this.firstTimed[k] = event.time;
    }
    if (pod.deletionTimestamp !== null) {
      const grace =
        pod.deletionGracePeriodSeconds ??
        pod.terminationGracePeriodSeconds ??
        DEFAULT_GRACE_SECONDS;
      this.graceEndsAt = pod.deletionTimestamp;
      this.deletionStartedAt = pod.deletionTimestamp - grace * 1000;
    }
    if (event.type === 'DELETED') {
      if (event.time !== null) {
        this.gone = { at: event.time, uncertain: false };
      } else if (pod.exitedAt !== null && (!this.gone || this.gone.uncertain)) {
        // kubectl's watch output has no times: the final object's last container exit is
        // when the pod stopped answering on its IP (the API removal follows within moments)
        this.gone = { at: pod.exitedAt, uncertain: false };
      } else if (!this.gone || this.gone.uncertain) {
        const estimate = this.lastKnownTime(pod);
        if (estimate !== null)
          this.gone = { at: Math.max(estimate, this.gone?.at ?? -Infinity), uncertain: true };
      }
    }
  }

  /** The pod's intervals, one per IP that has a time, in the order its IPs were first seen. */
  materialize(): PodInterval[] {
    const pod = this.latest;
    const out: PodInterval[] = [];
    let untimed: string[] | null = null;
    for (let k = 0; k < this.ips.length; k++) {
      const ip = this.ips[k] as string;
      const start = startOf(pod, this.sawWithoutIp, this.firstTimed[k] ?? null);
      if (!start) {
        (untimed ??= []).push(ip);
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
        deletionStartedAt: this.deletionStartedAt,
        graceEndsAt: this.graceEndsAt,
        goneAt: this.gone?.at ?? null,
        goneUncertain: this.gone?.uncertain ?? false,
        lastSeenAt: this.lastSeenAt,
      });
    }
    this.untimedIps = untimed ?? NO_IPS;
    return out;
  }

  /** Without event times, the last known time of a deleted pod: its latest status time or deletion start. */
  private lastKnownTime(pod: PodObservation): number | null {
    const candidates = [pod.latestTime, this.deletionStartedAt, this.lastSeenAt].filter(
      (t): t is number => t !== null,
    );
    return candidates.length ? Math.max(...candidates) : null;
  }
}

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

/** Untimed observations: keep the one that knows more (a deletion, a later status). */
function mergeLatest(current: PodObservation, next: PodObservation): PodObservation {
  if ((next.latestTime ?? -Infinity) >= (current.latestTime ?? -Infinity))
    return { ...next, ips: next.ips.length ? next.ips : current.ips };
  return current;
}
