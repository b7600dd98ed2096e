import type { FailureLimits } from './failures';
import type { TableStats } from './reader';
import type { PruneResult } from './retention';
import type { CommitInfo } from './writer';

export interface HistoryStoreOptions {
  /** Read an existing file only (no migration, no recording): the CLI. */
  readonly?: boolean;
  /**
   * Commit once this many rows are pending (default 10,000: about 2,000 pod events, a quarter
   * second of a rollout storm; bigger batches rewrite each index page fewer times).
   */
  batchSize?: number;
  /** Commit pending rows at most this long after the first of them (default 250 ms; 0: only by size or flush()). */
  flushIntervalMs?: number;
  /** prune() deletes what ended more than this many days ago (default: keep everything). */
  retentionDays?: number | null;
  /**
   * Where the pod IP intervals take their times from. 'api-server' (default): a watched change
   * is dated when meshdx saw it, on the API server's clock. 'objects': only the times the pod
   * objects carry (start, deletion, last container exit), exactly as the offline `meshdx
   * attribute` dates a kubectl watch capture: for a cluster whose clock is not to be trusted
   * for observation, such as a simulated cluster on a frozen clock.
   */
  clock?: 'api-server' | 'objects';
  /** Age and size limits of the recorded failing requests (default DEFAULT_FAILURE_LIMITS). */
  failureLimits?: FailureLimits;
  /** Told after every committed batch (the durability test prints it). */
  onCommit?: (info: CommitInfo) => void;
}

export interface RecordCounts {
  podEvents: number;
  kubeEvents: number;
  /** Objects that were not usable pods or events (counted, not stored). */
  invalid: number;
  transitions: number;
  /** Pods closed as gone because a relist after a restart no longer had them. */
  closedMissing: number;
}

export interface StoreStats {
  schemaVersion: number;
  tables: Record<'intervals' | 'snapshots' | 'transitions' | 'events', TableStats>;
  pending: number;
  commits: number;
  counts: RecordCounts;
  lastError: string | null;
  lastPrune: PruneResult | null;
  watch: {
    resource: string;
    resourceVersion: string | null;
    state: string | null;
    updated: number;
  }[];
}
