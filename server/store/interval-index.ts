import type { IpHistory } from '../../lib/ledger/attribution';
import { lookupInSorted } from '../../lib/ledger/lookup';
import type { IpLookup, PodInterval } from '../../lib/ledger/types';

/**
 * Stored intervals indexed by IP for lookups by (ip, time), with the ledger's lookup rules.
 * What attribution takes in place of an IpLedger when the history comes from a store file.
 */
export class IntervalIndex implements IpHistory {
  private readonly byIp = new Map<string, PodInterval[]>();
  private count = 0;

  /** Lists already grouped by IP and sorted by start (groupRawIntervals), taken as they are. */
  static fromSorted(byIp: Map<string, PodInterval[]>, count: number): IntervalIndex {
    const index = new IntervalIndex([]);
    for (const [ip, list] of byIp) index.byIp.set(ip, list);
    index.count = count;
    return index;
  }

  constructor(intervals: Iterable<PodInterval>) {
    for (const i of intervals) {
      const list = this.byIp.get(i.ip);
      if (list) list.push(i);
      else this.byIp.set(i.ip, [i]);
      this.count++;
    }
    for (const list of this.byIp.values()) list.sort((a, b) => a.from - b.from);
  }

  get size(): number {
    return this.count;
  }

  history(ip: string): PodInterval[] {
    return [...(this.byIp.get(ip) ?? [])];
  }

  at(ip: string, time: number, gapToleranceMs = 5 * 60_000): IpLookup {
    return lookupInSorted(ip, time, this.byIp.get(ip) ?? [], gapToleranceMs);
  }
}
