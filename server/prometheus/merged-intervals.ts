import { lookupInSorted } from '../../lib/ledger/lookup';
import type { IpLookup, PodInterval } from '../../lib/ledger/types';
import type { IpHistoryView } from '../screens/incidents/ip-history';

/** Lookups over a fixed list of intervals, with the ledger's rules. */
export class MergedIpIntervals implements IpHistoryView {
  private readonly byIp = new Map<string, PodInterval[]>();

  constructor(intervals: Iterable<PodInterval>) {
    for (const i of intervals) {
      const list = this.byIp.get(i.ip) ?? [];
      list.push(i);
      this.byIp.set(i.ip, list);
    }
    for (const list of this.byIp.values()) list.sort((a, b) => a.from - b.from);
  }

  history(ip: string): PodInterval[] {
    return [...(this.byIp.get(ip) ?? [])];
  }

  at(ip: string, time: number, gapToleranceMs = 5 * 60_000): IpLookup {
    return lookupInSorted(ip, time, this.byIp.get(ip) ?? [], gapToleranceMs);
  }
}

/**
 * meshdx's own intervals plus those only Prometheus knows (pods from before meshdx watched, or
 * while it was down). A pod+IP meshdx recorded itself is never replaced by the coarser metric one.
 */
export function mergeIntervals(
  own: readonly PodInterval[],
  extra: readonly PodInterval[],
): PodInterval[] {
  const key = (i: PodInterval) => `${i.uid ?? `${i.namespace}/${i.name}`}|${i.ip}`;
  const known = new Set(own.map(key));
  return [...own, ...extra.filter((i) => !known.has(key(i)))];
}
