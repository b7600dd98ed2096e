/**
 * A worker thread that reads a watch capture for `meshdx attribute` (see attribute-history.ts)
 * and posts its intervals as columns, then ends: the objects the reading made go with its heap.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { intervalRowsTransfer } from '../../lib/ledger/ledger-table';
import { loadCapture, type CaptureHistory, type CaptureLimits } from './attribute-capture';

export interface CaptureWorkerData {
  file: string;
  limits: CaptureLimits;
}

export type CaptureWorkerMessage =
  { ok: true; history: CaptureHistory } | { ok: false; message: string };

/** The capture's intervals as columns (moved, not copied, to the parent), or why not. */
function read(data: CaptureWorkerData): { message: CaptureWorkerMessage; transfer: ArrayBuffer[] } {
  try {
    const history = loadCapture(data.file, data.limits);
    return { message: { ok: true, history }, transfer: intervalRowsTransfer(history.rows) };
  } catch (e) {
    return {
      message: { ok: false, message: e instanceof Error ? e.message : String(e) },
      transfer: [],
    };
  }
}

const { message, transfer } = read(workerData as CaptureWorkerData);
parentPort?.postMessage(message, transfer);
