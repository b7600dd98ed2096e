/**
 * A worker thread of a parallel log scan (see parallel.ts): takes segments from the shared
 * counter until none is left and posts each one's output on its port, then closes the port.
 */
import fs from 'node:fs';
import { workerData, type MessagePort } from 'node:worker_threads';
import { scanSegment, type SegmentScanOptions } from './segment';

export interface ScanWorkerData {
  file: string;
  bounds: number[];
  options: SegmentScanOptions;
  /** [next segment to take, segments posted, workers started] */
  shared: Int32Array;
  port: MessagePort;
}

const data = workerData as ScanWorkerData;
Atomics.add(data.shared, 2, 1);
const fd = fs.openSync(data.file, 'r');
const buf = Buffer.allocUnsafe(1024 * 1024);
try {
  const count = data.bounds.length - 1;
  for (;;) {
    const k = Atomics.add(data.shared, 0, 1);
    if (k >= count) break;
    const out = scanSegment(
      fd,
      k,
      data.bounds[k] as number,
      data.bounds[k + 1] as number,
      data.options,
      buf,
    );
    data.port.postMessage(out);
    Atomics.add(data.shared, 1, 1);
    Atomics.notify(data.shared, 1);
  }
} finally {
  fs.closeSync(fd);
  data.port.close();
}
