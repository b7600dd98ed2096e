import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import { intervalTableFromRows } from '../../lib/ledger/ledger-table';
import type { IntervalTable } from '../../lib/ledger/interval-table';
import { loadCapture, type CaptureHistory, type CaptureLimits } from './attribute-capture';
import type { CaptureWorkerData, CaptureWorkerMessage } from './attribute-capture-worker';

const WORKER_URL = new URL('./attribute-capture-worker-entry.mjs', import.meta.url);
/** Smaller captures are read here: a worker's start would cost more than it saves. */
const WORKER_FROM_BYTES = 8 * 1024 * 1024;

/** A capture read, as a table for lookups; `warning` when it was read here after a worker failed. */
export interface LoadedCapture {
  history: CaptureHistory;
  table: IntervalTable;
  warning: string | null;
}

/**
 * Reads a watch capture on a worker thread of its own, which ends when it has handed over the
 * intervals: the tens of megabytes of objects reading a large capture makes are not left in
 * this thread's heap while the log is read. A worker that cannot run costs only time: the
 * capture is then read here. A file that cannot be read is an error either way.
 */
export async function loadCaptureTable(
  file: string,
  limits: CaptureLimits,
  options: { workerEntry?: URL; workerFromBytes?: number } = {},
): Promise<LoadedCapture> {
  if (fs.statSync(file).size < (options.workerFromBytes ?? WORKER_FROM_BYTES)) {
    const history = loadCapture(file, limits);
    return { history, table: intervalTableFromRows(history.rows), warning: null };
  }
  const got = await onWorker(file, limits, options.workerEntry ?? WORKER_URL).catch(
    (e: unknown) => ({ failed: e instanceof Error ? e.message : String(e) }),
  );
  if ('ok' in got && !got.ok) throw new Error(got.message);
  const history = 'ok' in got ? got.history : loadCapture(file, limits);
  const warning =
    'failed' in got
      ? `the capture worker failed (${got.failed}); the capture was read on the main thread`
      : null;
  return { history, table: intervalTableFromRows(history.rows), warning };
}

function onWorker(file: string, limits: CaptureLimits, entry: URL): Promise<CaptureWorkerMessage> {
  const data: CaptureWorkerData = { file, limits };
  return new Promise((resolve, reject) => {
    const worker = new Worker(entry, {
      workerData: data,
      // its heap goes when it ends; a small young generation keeps the peak low meanwhile
      resourceLimits: { maxYoungGenerationSizeMb: 16 },
    });
    let answered = false;
    worker.once('message', (m: CaptureWorkerMessage) => {
      answered = true;
      resolve(m);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`ended with code ${code} before it answered`));
    });
  });
}
