/**
 * "Who held this IP at that time": the one interface every attribution asks, whatever keeps
 * the history. The runtime's history store loads its intervals as one (an IntervalTable, with
 * Prometheus' kube-state-metrics intervals merged in when configured); `meshdx attribute`
 * reads a pod watch capture into one (IpLedger, or its IntervalTable for long logs) or a store
 * file. Lookups follow the rules of lookup.ts in every implementation.
 */
import type { IpLookup, PodInterval } from './types';

export interface IpHistory {
  /** Who held `ip` at `time` (epoch ms), and in what state. */
  at(ip: string, time: number, gapToleranceMs?: number): IpLookup;
  /** The intervals of one IP, sorted by start. */
  history(ip: string): PodInterval[];
  /** Every interval, by IP then start. */
  intervals(): PodInterval[];
}
