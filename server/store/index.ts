export { openHistoryStore, HistoryStore } from './history-store';
export type { HistoryStoreOptions, RecordCounts, StoreStats } from './history-store';
export type { PodSnapshot, StoredTransition } from './reader';
export type { RecordedKubeEvent } from './kube-events';
export { startRecorder } from './recorder';
export { StorePodHistory } from './pod-history';
export type { Recorder, RecorderOptions, RecorderStatus } from './recorder';
export { SqliteFailureStore, DEFAULT_FAILURE_LIMITS } from './failures';
export type { FailureLimits } from './failures';
export { DEFAULT_SNAPSHOT_LIMITS, SnapshotTooLarge, SqliteSnapshotStore } from './snapshots';
export type {
  NewSnapshot,
  Snapshot,
  SnapshotLimits,
  SnapshotMeta,
  SnapshotStats,
} from './snapshots';
