import fs from 'node:fs';
import { createCaptureReader } from '../../lib/ledger/capture-reader';
import type { HistoryCounts, HistoryProblem } from '../../lib/ledger/events';
import { IpLedger, type UntimedPodIps } from '../../lib/ledger/ledger';
import { intervalRowsOf, type IntervalRows } from '../../lib/ledger/ledger-table';

/** A watch capture or pod list read: its intervals in columns, what was wrong, what was read. */
export interface CaptureHistory {
  rows: IntervalRows;
  problems: HistoryProblem[];
  counts: HistoryCounts;
  /** Pod IPs the capture gives no time for: left out of the rows, named here. */
  untimed: UntimedPodIps;
}

export interface CaptureLimits {
  maxDepth: number;
  maxValueChars: number;
}

/**
 * Reads a watch capture or pod list (kubectl get pods -w -o json ...) in chunks of its bytes
 * into an IpLedger, and gives its intervals as columns (the ledger's objects are let go).
 * Throws when the file cannot be read.
 */
export function loadCapture(file: string, limits: CaptureLimits): CaptureHistory {
  const ledger = new IpLedger();
  // each JSON value is bounded (depth, size); the file as a whole is streamed
  const reader = createCaptureReader(1000, limits);
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(1024 * 1024);
    for (;;) {
      const n = fs.readSync(fd, buf, 0, buf.length, null);
      if (n <= 0) break;
      ledger.addAll(reader.push(buf.subarray(0, n)));
    }
    reader.end();
  } finally {
    fs.closeSync(fd);
  }
  // making the rows is what finds the untimed IPs: rows first
  const rows = intervalRowsOf(ledger);
  return {
    rows,
    problems: reader.problems,
    counts: reader.counts,
    untimed: ledger.untimedPodIps(),
  };
}
