/**
 * The pod-IP history the Incidents view asks "who held this IP at that moment": on every cluster
 * (the simulated one too) the runtime's SQLite history store, which the runtime's one pod watch
 * fills, so pods that were gone before meshdx restarted are still found. Prometheus'
 * kube-state-metrics intervals may be merged in (prometheus-history.ts).
 */
import type { IpHistory } from '../../../lib/ledger/attribution';
import type { PodInterval } from '../../../lib/ledger/types';
import type { ClusterRuntime } from '../../runtime/runtime';

/** A pod-IP history that answers (ip, time) lookups and lists its intervals. */
export interface IpHistoryView extends IpHistory {
  history(ip: string): PodInterval[];
}

/** Where the Incidents use case gets pod-IP intervals from. */
export interface IpIntervalSource {
  lookup(): IpHistoryView;
  intervals(): PodInterval[];
  info(): { source: string; note: string | null };
  /** Settles once the first pod list has been taken in. */
  ready: Promise<void>;
}

/** What a HistoryStore offers that this needs (server/store/history-store.ts). */
export interface IntervalStore {
  loadHistory(): IpHistoryView;
  allIntervals(): Iterable<PodInterval>;
}

/** A history store as an interval source, named after its file. */
export function storeIpHistory(
  store: IntervalStore,
  opts: { file?: string; note?: string | null; ready?: Promise<void> } = {},
): IpIntervalSource {
  const file = opts.file ?? ':memory:';
  return {
    lookup: () => store.loadHistory(),
    intervals: () => [...store.allIntervals()],
    info: () => ({
      source:
        file === ':memory:' ? 'SQLite history store (in memory)' : `SQLite history store ${file}`,
      note: opts.note ?? null,
    }),
    ready: opts.ready ?? Promise.resolve(),
  };
}

/** The runtime's store as the Incidents history; ready once the first pod list is recorded. */
export function runtimeIpHistory(rt: ClusterRuntime): IpIntervalSource {
  const rec = rt.recorder.status();
  const problem = rec.pods.lastError;
  return storeIpHistory(rt.store, {
    file: rt.history.file,
    note:
      [rt.history.fallback, problem ? `pod watch: ${problem}` : null].filter(Boolean).join(' ') ||
      null,
    ready: rt.pods.whenListed().then(() => rt.recorder.ready),
  });
}
