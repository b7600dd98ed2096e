/**
 * Where the Incidents view gets its answer to "who held this IP at that moment": on every
 * cluster (the simulated one too) the runtime's history store, which the runtime's one pod
 * watch fills, so pods that were gone before meshdx restarted are still found. Prometheus'
 * kube-state-metrics intervals may be merged in (prometheus-history.ts).
 */
import type { IpHistory } from '../../../lib/ledger/ip-history';
import type { ClusterRuntime } from '../../runtime/runtime';
import type { HistoryStore } from '../../store/history-store';

/** An IpHistory as it stands when asked, with where it comes from. */
export interface IpHistorySource {
  /** Settles once the first pod list has been taken in. */
  ready: Promise<void>;
  /**
   * The history now: load once per view and ask it everything. From a history store it is the
   * store's table of its interval revision (HistoryStore.loadHistory), the one the OTLP receiver
   * reads too: a view rebuilds nothing while no pod interval changed.
   */
  load(): IpHistory;
  info(): { source: string; note: string | null };
}

/** A history store as an IpHistorySource, named after its file. */
export function storeIpHistory(
  store: Pick<HistoryStore, 'loadHistory'>,
  opts: { file?: string; note?: string | null; ready?: Promise<void> } = {},
): IpHistorySource {
  const file = opts.file ?? ':memory:';
  return {
    load: () => store.loadHistory(),
    info: () => ({
      source:
        file === ':memory:' ? 'SQLite history store (in memory)' : `SQLite history store ${file}`,
      note: opts.note ?? null,
    }),
    ready: opts.ready ?? Promise.resolve(),
  };
}

/** The runtime's store as the Incidents history; ready once the first pod list is recorded. */
export function runtimeIpHistory(rt: ClusterRuntime): IpHistorySource {
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
