import { PodIpTrack } from '../../lib/ledger/pod-track';
import type { FromSource, PodInterval, PodObservation } from '../../lib/ledger/types';

export interface TrackedPodEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  pod: PodObservation;
  /** When meshdx observed it (epoch ms). */
  at: number;
  /**
   * The change happened at an unknown time before `at` (seen on a relist, not on the watch):
   * a DELETED then closes the intervals at `at` marked uncertain, and `at` is not a sighting.
   */
  uncertain: boolean;
  /** `at` is no time of the change at all (the store's 'objects' clock): use the object's times. */
  untimed?: boolean;
}

export interface PreservedStart {
  from: number;
  fromSource: FromSource;
}

/**
 * Pod IP intervals of the pods being watched, one PodIpTrack per pod (the ledger's rules, not a
 * second algorithm, and no ledger's index per pod), so that a pod's intervals can be recomputed
 * and written after each event and the pod forgotten once it is gone. `preserved` gives the start an interval already had in
 * the store before this process saw the pod (a restart): the start seen then was at least as
 * good as the lower bound a relist gives now, so it is kept.
 */
export class PodIntervalTracker {
  private readonly pods = new Map<string, PodIpTrack>();
  /** Pods whose deletion was seen on a relist only, with when meshdx saw them gone. */
  private readonly uncertainGone = new Map<string, number>();

  constructor(
    private readonly preserved: (podKey: string, ip: string) => PreservedStart | undefined = () =>
      undefined,
  ) {}

  get size(): number {
    return this.pods.size;
  }

  /** Records one event and returns the pod's intervals after it, by IP then start. */
  apply(podKey: string, ev: TrackedPodEvent): PodInterval[] {
    let t = this.pods.get(podKey);
    // a host-network pod has no pod IP of its own (the ledger skips its events too)
    if (!ev.pod.hostNetwork) {
      if (!t) {
        t = new PodIpTrack(ev.pod);
        this.pods.set(podKey, t);
      }
      const uncertainGone = ev.uncertain && ev.type === 'DELETED';
      t.add({ type: ev.type, pod: ev.pod, time: uncertainGone || ev.untimed ? null : ev.at });
      if (uncertainGone) this.uncertainGone.set(podKey, ev.at);
    }
    if (!t) return [];
    const goneAt = this.uncertainGone.get(podKey);
    return t
      .materialize()
      .sort(byIpThenFrom)
      .map((i) => {
        const kept = this.preserved(podKey, i.ip);
        const out = kept ? { ...i, from: kept.from, fromSource: kept.fromSource } : i;
        return goneAt !== undefined ? { ...out, goneAt, goneUncertain: true } : out;
      });
  }

  forget(podKey: string): void {
    this.pods.delete(podKey);
    this.uncertainGone.delete(podKey);
  }
}

const byIpThenFrom = (a: PodInterval, b: PodInterval): number =>
  a.ip < b.ip ? -1 : a.ip > b.ip ? 1 : a.from - b.from;
