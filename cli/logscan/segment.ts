import fs from 'node:fs';
import { proxyLogStateAfter } from '../../lib/accesslog/proxy-state';
import { upstreamIpOf, type AttributionInput } from '../../lib/ledger/attribution';
import { attributionJsonMiddle } from '../../lib/ledger/report-json';
import {
  createRecordScan,
  type RecordScanOptions,
  type RecordScanResult,
} from '../../lib/ledger/scan';

/** The options of a record scan that can cross to a worker thread (no callbacks). */
export type SegmentScanOptions = Pick<
  RecordScanOptions,
  'format' | 'all' | 'prescan' | 'maxUnreadableListed' | 'maxLineBytes'
> & {
  /**
   * 'json': hand over each record as the parts of its --json item that need no history
   * (JsonParts) instead of the record; less to copy between threads and to do where the
   * history is.
   */
  output?: 'records' | 'json';
};

/** Records of a segment prepared for --json: one entry per record in each array. */
export interface JsonParts {
  lines: Int32Array;
  /** Start times (epoch ms), NaN where the record has none. */
  times: Float64Array;
  /** Normalised upstream IPs. */
  ips: (string | null)[];
  /** attributionJsonMiddle of each record. */
  middles: string[];
}

/**
 * Where the records that need attribution go, in line order: as records, or (with output
 * 'json') as the parts of their --json items.
 */
export interface LogScanSink {
  record?: (r: AttributionInput) => void;
  json?: (line: number, time: number | null, ip: string | null, middle: string) => void;
}

/** A scan's onRecord that hands each record to the sink as `output` asks. */
export function toSink(
  output: SegmentScanOptions['output'],
  sink: LogScanSink,
): (r: AttributionInput) => void {
  if (output !== 'json') return (r) => sink.record?.(r);
  return (r) => sink.json?.(r.line, r.time, upstreamIpOf(r), attributionJsonMiddle(r));
}

/**
 * Reads bytes [from, to) of an open file (from null: on from where the file is, to its end)
 * into `buf`, chunk after chunk, and pushes each to the scan (which copies what it keeps).
 */
export function pump(
  fd: number,
  buf: Buffer,
  from: number | null,
  to: number,
  scan: { push(chunk: Uint8Array): void },
): void {
  let pos = from ?? 0;
  while (pos < to) {
    const n = fs.readSync(fd, buf, 0, Math.min(buf.length, to - pos), from === null ? null : pos);
    if (n <= 0) break;
    scan.push(n === buf.length ? buf : buf.subarray(0, n));
    pos += n;
  }
}

/** One segment of a log scanned: its counts and the records that need attribution. */
export interface SegmentOutput {
  index: number;
  result: RecordScanResult;
  records: AttributionInput[];
  json: JsonParts | null;
}

const CHUNK = 1024 * 1024;
const NL = 10;

/**
 * Where a log of `size` bytes is cut into segments of about `segmentBytes`: each cut moved to
 * the start of the next line, so that segment k is the lines starting in
 * [bounds[k], bounds[k + 1]). Returns [0, ..., size]; a line longer than a segment makes
 * its segment empty, never a line split in two.
 */
export function segmentBounds(fd: number, size: number, segmentBytes: number): number[] {
  const bounds = [0];
  const buf = Buffer.allocUnsafe(64 * 1024);
  let cut = segmentBytes;
  while (cut < size) {
    const at = nextLineStart(fd, cut, size, buf);
    if (at >= size) break;
    if (at > (bounds[bounds.length - 1] as number)) bounds.push(at);
    cut = Math.max(at, cut) + segmentBytes;
  }
  bounds.push(size);
  return bounds;
}

/** The first line start at or after `pos` (pos itself when the byte before it is '\n'). */
function nextLineStart(fd: number, pos: number, size: number, buf: Buffer): number {
  let p = pos - 1;
  while (p < size) {
    const n = fs.readSync(fd, buf, 0, Math.min(buf.length, size - p), p);
    if (n <= 0) return size;
    const nl = buf.subarray(0, n).indexOf(NL);
    if (nl >= 0) return p + nl + 1;
    p += n;
  }
  return size;
}

/**
 * Whether the lines before byte `start` (a line start) leave a proxy log entry open: read
 * backwards in growing windows until a line decides (see proxyLogStateAfter). At the start of
 * the file no entry is open.
 */
export function proxyLogStateBefore(
  fd: number,
  start: number,
  options: Pick<SegmentScanOptions, 'format'>,
): boolean {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let window = 16 * 1024;
  let decidedUpTo = start; // lines from here on were looked at and did not decide
  while (decidedUpTo > 0) {
    const from = Math.max(0, start - window);
    const buf = Buffer.allocUnsafe(decidedUpTo - from);
    const n = fs.readSync(fd, buf, 0, buf.length, from);
    let bytes = buf.subarray(0, n);
    // only whole lines: drop the first, cut one, unless the window reaches the file's start
    let lineStart = from;
    if (from > 0) {
      const nl = bytes.indexOf(NL);
      if (nl < 0) {
        window *= 4;
        continue;
      }
      bytes = bytes.subarray(nl + 1);
      lineStart = from + nl + 1;
    }
    const text = decoder.decode(bytes);
    const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
    const state = proxyLogStateAfter(lines, { format: options.format });
    if (state !== null) return state;
    if (from === 0) return false;
    decidedUpTo = lineStart;
    window *= 4;
  }
  return false;
}

/**
 * Scans the lines of bytes [start, end) of an open log (start and end at line starts, from
 * segmentBounds) as a record scan that begins there: line numbers count from this segment's
 * first line. `buf` is a reusable read buffer.
 */
export function scanSegment(
  fd: number,
  index: number,
  start: number,
  end: number,
  options: SegmentScanOptions,
  buf: Buffer = Buffer.allocUnsafe(CHUNK),
): SegmentOutput {
  const records: AttributionInput[] = [];
  const lines: number[] = [];
  const times: number[] = [];
  const ips: (string | null)[] = [];
  const middles: string[] = [];
  const json = options.output === 'json';
  const scan = createRecordScan({
    ...options,
    initialInProxyLog: start > 0 ? proxyLogStateBefore(fd, start, options) : false,
    onRecord: toSink(options.output, {
      json: (line, time, ip, middle) => {
        lines.push(line);
        times.push(time ?? Number.NaN);
        ips.push(ip);
        middles.push(middle);
      },
      // what attribution reads, not the whole record: this crosses threads
      record: (r) =>
        void records.push({
          line: r.line,
          startTime: r.startTime,
          time: r.time,
          responseCode: r.responseCode,
          responseFlags: r.responseFlags,
          upstreamHost: r.upstreamHost,
          upstreamCluster: r.upstreamCluster,
          downstreamRemoteAddress: r.downstreamRemoteAddress,
        }),
    }),
  });
  pump(fd, buf, start, end, scan);
  return {
    index,
    result: scan.end(),
    records,
    json: json
      ? { lines: Int32Array.from(lines), times: Float64Array.from(times), ips, middles }
      : null,
  };
}
