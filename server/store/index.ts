export { openHistoryStore, HistoryStore } from './history-store';
export type { HistoryStoreOptions, RecordCounts, StoreStats } from './history-store';
export type { PodSnapshot, StoredTransition } from './reader';
export type { RecordedKubeEvent } from './kube-events';
export { startRecorder } from './recorder';
export type { Recorder, RecorderOptions, RecorderStatus } from './recorder';
