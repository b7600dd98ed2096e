import fs from 'node:fs';
import path from 'node:path';
import { openHistoryStore, startRecorder, type HistoryStore, type Recorder } from './store';
import { cluster, env, onClusterChange } from './wiring';

interface HistoryState {
  store?: HistoryStore;
  recorder?: Recorder;
  error?: string;
  /** Restarts the recorder on the new cluster when the kubeconfig changes. */
  following?: () => void;
}

// One store and one recorder per server process, whichever route bundle asks first.
const holder = globalThis as typeof globalThis & { __meshdxHistory?: HistoryState };

function state(): HistoryState {
  holder.__meshdxHistory ??= {};
  return holder.__meshdxHistory;
}

/** The history store (SQLite at MESHDX_DB), opened once. */
export function historyStore(): HistoryStore {
  const s = state();
  if (!s.store) {
    const file = env().MESHDX_DB;
    if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    s.store = openHistoryStore(file);
  }
  return s.store;
}

/**
 * Starts recording what the cluster does (pods, events) into the store, once per process.
 * Called from instrumentation.ts at server start; a cluster that is not configured yet is
 * retried on the next call, so fixing the kubeconfig starts the recorder without a restart.
 */
export function ensureRecorder(): { recorder?: Recorder; error?: string } {
  const s = state();
  if (s.recorder) return { recorder: s.recorder };
  try {
    const c = cluster();
    s.recorder = startRecorder({ transport: c.transport, kc: c.kc, store: historyStore() });
    s.error = undefined;
    s.following ??= onClusterChange(() => {
      // the old watches ran on a closed transport: record from the new cluster (the store and
      // its history stay; a missing cluster leaves the error for /api/health to show)
      s.recorder?.stop();
      s.recorder = undefined;
      ensureRecorder();
    });
    return { recorder: s.recorder };
  } catch (e) {
    s.error = e instanceof Error ? e.message : String(e);
    return { error: s.error };
  }
}

export function recorderStatus(): {
  running: boolean;
  error?: string;
  status?: ReturnType<Recorder['status']>;
} {
  const s = state();
  return s.recorder
    ? { running: true, status: s.recorder.status() }
    : { running: false, error: s.error };
}

export async function stopHistory(): Promise<void> {
  const s = state();
  s.following?.();
  s.recorder?.stop();
  s.store?.close();
  holder.__meshdxHistory = undefined;
}
