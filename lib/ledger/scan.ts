import { createLineParser } from '../accesslog/parser';
import { createLineSplitter, DEFAULT_MAX_LINE_BYTES } from '../accesslog/lines';
import { createPrescan, PASS, prescanAppliesTo } from '../accesslog/prescan';
import { isFailure } from '../accesslog/failure';
import type { ErrorReason, SkipReason } from '../accesslog/types';
import {
  ATTRIBUTION_FIELDS,
  attributeRecord,
  type Attribution,
  type AttributionInput,
} from './attribution';
import type { IpHistory } from './ip-history';
import { emptyUntimed, noteUntimed, type UntimedLines } from './untimed';

export interface AttributionScanOptions {
  /** A custom Envoy format string (see parser.ts). */
  format?: string;
  /** Attribute every request, not only failures (5xx or flagged). */
  all?: boolean;
  gapToleranceMs?: number;
  /**
   * Pre-scan each line's bytes and fully parse only the lines that can need attribution
   * (default true). Off: every line is decoded and parsed; the results are the same.
   */
  prescan?: boolean;
  /**
   * Called with each attribution, in line order. When given, attributions are not collected
   * in the result (a long log then holds only what the callback keeps).
   */
  onAttribution?: (a: Attribution) => void;
  /** Unreadable lines listed one by one (all are counted). Default 1000. */
  maxUnreadableListed?: number;
  /** Longest line read (longer ones are unreadable, 'too-long'); default 1 MiB. */
  maxLineBytes?: number;
}

export interface AttributionScanResult {
  /** Attributions made (also when they went to onAttribution). */
  attributed: number;
  /** Lines in the input, as `wc -l` counts them (plus a last line without '\n'). */
  lines: number;
  /** Access-log records: parsed ones plus those the pre-scan passed. */
  requests: number;
  /** Records the pre-scan passed without parsing: certainly not failing (skipped by filter). */
  skippedByFilter: number;
  /** Lines that are no access log but are known for what they are (proxy logs, blank). */
  skipped: Partial<Record<SkipReason, number>>;
  /** Unreadable lines (all counted; the first ones listed in `unreadable`). */
  errors: number;
  errorsByReason: Partial<Record<ErrorReason, number>>;
  unreadable: { line: number; reason: ErrorReason }[];
  /** Requests that needed attribution but had no time (see untimed.ts): counted and listed. */
  untimed: UntimedLines;
  /** The attributions, in line order (empty when onAttribution was given). */
  attributions: Attribution[];
  /** Whether the pre-scan was used (off for --all and formats that do not start like Istio's). */
  prescan: boolean;
}

export interface AttributionScan {
  push(chunk: Uint8Array): void;
  end(): AttributionScanResult;
}

/** The counts of a scan without its attributions. */
export type RecordScanResult = Omit<AttributionScanResult, 'attributions' | 'attributed'> & {
  /** Records handed to onRecord. */
  selected: number;
};

export interface RecordScanOptions extends Omit<
  AttributionScanOptions,
  'onAttribution' | 'gapToleranceMs'
> {
  /** Called with each record that needs attribution (failing, or every one with `all`). */
  onRecord: (r: AttributionInput) => void;
  /**
   * For a scan that starts in the middle of a log: whether the lines before it left a proxy
   * log entry open (see proxyLogStateAfter). Line numbers then count from this scan's start.
   */
  initialInProxyLog?: boolean;
}

/** The counts of a scan that has read nothing yet. */
export function emptyRecordScanResult(prescan: boolean): RecordScanResult {
  return {
    lines: 0,
    selected: 0,
    requests: 0,
    skippedByFilter: 0,
    skipped: {},
    errors: 0,
    errorsByReason: {},
    unreadable: [],
    untimed: emptyUntimed(),
    prescan,
  };
}

export interface RecordScan {
  push(chunk: Uint8Array): void;
  end(): RecordScanResult;
}

/**
 * Reads an access log chunk by chunk and hands over the records that need attribution, in
 * line order, with the counts of everything else. Needs no history: a part of a log can be
 * scanned on one thread and attributed on another.
 */
export function createRecordScan(options: RecordScanOptions): RecordScan {
  const all = options.all ?? false;
  const maxListed = options.maxUnreadableListed ?? 1000;
  const onRecord = options.onRecord;
  const parser = createLineParser({
    format: options.format,
    initialInProxyLog: options.initialInProxyLog,
    fields: ATTRIBUTION_FIELDS,
  });
  const usePrescan = (options.prescan ?? true) && !all && prescanAppliesTo(options);
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const result = emptyRecordScanResult(usePrescan);

  const maxLine = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;

  function parse(bytes: Uint8Array, start: number, end: number, cut = false): void {
    const r = cut
      ? parser.tooLong(decoder.decode(bytes.subarray(start, Math.min(end, start + 120))), maxLine)
      : parser.push(decoder.decode(bytes.subarray(start, end)));
    if (r.kind === 'record') {
      result.requests++;
      if (all || isFailure(r.record)) {
        result.selected++;
        if (r.record.time === null) noteUntimed(result.untimed, r.record.line, maxListed);
        onRecord(r.record);
      }
    } else if (r.kind === 'skipped') {
      result.skipped[r.reason] = (result.skipped[r.reason] ?? 0) + 1;
    } else {
      result.errors++;
      const reason = r.error.reason;
      result.errorsByReason[reason] = (result.errorsByReason[reason] ?? 0) + 1;
      if (result.unreadable.length < maxListed)
        result.unreadable.push({ line: r.error.line, reason });
    }
  }

  const prescan = createPrescan();
  const splitter = createLineSplitter(
    usePrescan
      ? (bytes, start, end, cut) => {
          if (cut) parse(bytes, start, end, true);
          else if (prescan.line(bytes, start, end) === PASS) {
            parser.skipRecord();
            result.requests++;
            result.skippedByFilter++;
          } else parse(bytes, start, end);
        }
      : parse,
    maxLine,
  );

  return {
    push(chunk) {
      // the caller may have read this chunk into the buffer of the last one
      prescan.forget();
      splitter.push(chunk);
    },
    end() {
      splitter.end();
      result.lines = splitter.lines;
      return result;
    },
  };
}

/**
 * Reads an access log chunk by chunk and attributes its failing requests (or all, with
 * `all`) to the pods that held their upstream IPs. Memory holds the results, not the input.
 */
export function createAttributionScan(
  history: IpHistory,
  options: AttributionScanOptions = {},
): AttributionScan {
  const attributeOptions = { gapToleranceMs: options.gapToleranceMs };
  const attributions: Attribution[] = [];
  const onAttribution = options.onAttribution ?? ((a: Attribution) => void attributions.push(a));
  const scan = createRecordScan({
    ...options,
    onRecord: (r) => onAttribution(attributeRecord(r, history, attributeOptions)),
  });
  return {
    push: (chunk) => scan.push(chunk),
    end() {
      const { selected, ...rest } = scan.end();
      return { ...rest, attributed: selected, attributions };
    },
  };
}
