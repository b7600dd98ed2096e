/**
 * What the receiver does with one Export, whatever the transport: judge the sender, bound the
 * rate, map each log record to an access-log record, attribute it now (the pod that held the
 * upstream IP at the request's time, from the runtime's IpHistory) and store it with the
 * failure-records API in one transaction. Counters say what was received, stored, dropped and
 * refused. Nothing is queued: a request is stored before it is answered, and past the rate a
 * whole request is refused with when to retry (the sender keeps it), never held.
 */
import { createLineParser } from '../../lib/accesslog/parser';
import { isFailure } from '../../lib/accesslog/failure';
import { failureOf } from '../../lib/incidents/failure-record';
import type { FailureInput, FailureStore } from '../../lib/incidents/failure-store';
import type { IpHistory } from '../../lib/ledger/ip-history';
import { judgeSender, type AllowRule, type PeerPod } from '../../lib/otlp/allow';
import { eachLogRecord, type OtlpRecordProblem } from '../../lib/otlp/map';
import { podKey } from '../../lib/refs/pod-ref';
import { OtlpDecodeError, type DecodedLogs, type PartialSuccess } from './schema';

/** What the receiver reaches of the cluster's runtime. */
export interface IngestTarget {
  /** The live pod holding `ip` now, or null. */
  podByIp(ip: string): (PeerPod & { uid: string | null }) | null;
  /** The IP history as it stands (a runtime's: its store's table of the interval revision). */
  history(): IpHistory;
  failures: Pick<FailureStore, 'record'>;
  /** Now on the cluster's clock (epoch ms). */
  now(): number;
}

export interface IngestLimits {
  /** Records accepted per second, sustained. */
  recordsPerSecond: number;
  /** Records accepted at once above the sustained rate. */
  burst: number;
}

export interface OtlpCounters {
  /** Log records in accepted requests. */
  received: number;
  /** New failure records written to the store. */
  stored: number;
  /** Records already stored (the same line from the same proxy). */
  duplicates: number;
  /** Records that are access logs of requests that did not fail (not kept). */
  notFailing: number;
  /** Records that are not access logs (named in the answer's partial_success). */
  unreadable: number;
  /** Records refused past the rate bound (the sender was told to retry). */
  dropped: number;
  /** Records from refused senders. */
  refused: number;
  /** Requests whose body could not be decoded. */
  invalid: number;
  /** Records in requests that failed while storing. */
  failed: number;
  lastRefusal: string | null;
  lastError: string | null;
}

export type ExportOutcome =
  | { kind: 'ok'; partial: PartialSuccess | null }
  | { kind: 'denied'; reason: string }
  | { kind: 'exhausted'; reason: string; retryAfterMs: number }
  /** A log record could not be decoded: the request is refused whole, nothing of it stored. */
  | { kind: 'invalid'; reason: string }
  | { kind: 'failed'; reason: string };

export function emptyCounters(): OtlpCounters {
  return {
    received: 0,
    stored: 0,
    duplicates: 0,
    notFailing: 0,
    unreadable: 0,
    dropped: 0,
    refused: 0,
    invalid: 0,
    failed: 0,
    lastRefusal: null,
    lastError: null,
  };
}

export class OtlpIngest {
  readonly counters = emptyCounters();
  private tokens: number;
  private lastRefill: number;

  constructor(
    private readonly target: () => IngestTarget | null,
    private readonly rule: AllowRule,
    private readonly limits: IngestLimits,
    private readonly clock: () => number = () => performance.now(),
  ) {
    this.tokens = limits.burst;
    this.lastRefill = clock();
  }

  /** A body that could not be decoded (the transport answers with its own error). */
  invalid(reason: string): void {
    this.counters.invalid++;
    this.counters.lastRefusal = reason;
  }

  /**
   * Takes `n` records from the bucket, or says in how many ms to retry. A request larger than
   * the burst passes only when the bucket is full, and leaves a debt the next ones wait for.
   */
  private take(n: number): number | null {
    const now = this.clock();
    const { recordsPerSecond: rate, burst } = this.limits;
    this.tokens = Math.min(burst, this.tokens + ((now - this.lastRefill) / 1000) * rate);
    this.lastRefill = now;
    const need = Math.min(n, burst);
    if (this.tokens < need) return Math.max(1000, Math.ceil(((need - this.tokens) / rate) * 1000));
    this.tokens -= n;
    return null;
  }

  export(peerIp: string | null, decoded: DecodedLogs): ExportOutcome {
    const { records: n, request } = decoded;
    const target = this.target();
    if (!target) {
      this.counters.failed += n;
      const reason = 'no cluster is configured yet: nothing to attribute the records to';
      this.counters.lastError = reason;
      return { kind: 'failed', reason };
    }
    const peerPod = peerIp ? target.podByIp(peerIp) : null;
    const verdict = judgeSender(this.rule, peerIp, peerPod);
    if (!verdict.allowed) {
      this.counters.refused += n;
      this.counters.lastRefusal = verdict.reason;
      return { kind: 'denied', reason: verdict.reason };
    }
    if (n === 0) return { kind: 'ok', partial: null };
    const retryAfterMs = this.take(n);
    if (retryAfterMs !== null) {
      this.counters.dropped += n;
      const reason = `more than ${this.limits.recordsPerSecond} records/s: retry in ${Math.ceil(retryAfterMs / 1000)} s`;
      this.counters.lastRefusal = reason;
      return { kind: 'exhausted', reason, retryAfterMs };
    }
    const history = target.history();
    const problems: OtlpRecordProblem[] = [];
    let notFailing = 0;
    // each record is decoded, mapped, attributed and stored before the next is read: what a
    // request of thousands of records makes is short-lived, not held until the whole request is
    // mapped
    const peerSender = verdict.via === 'pod' ? verdict.pod : null;
    const peerUid = verdict.via === 'pod' && peerPod ? peerPod.uid : null;
    function* failures(): Generator<FailureInput> {
      const parser = createLineParser();
      for (const m of eachLogRecord(request, parser)) {
        if (!('record' in m)) {
          problems.push(m);
          continue;
        }
        if (!isFailure(m.record)) {
          notFailing++;
          continue;
        }
        const sender = m.pod ?? peerSender;
        const proxy = sender ? podKey(sender.namespace, sender.name) : `otlp:${peerIp}`;
        const proxyUid = m.pod ? null : peerUid;
        yield failureOf(m.raw, m.record, { read: 'otlp', proxy, proxyUid }, history);
      }
    }
    try {
      // a record that cannot be decoded throws inside the store's transaction: nothing is kept
      const res = target.failures.record(failures(), target.now());
      this.counters.stored += res.added;
      this.counters.duplicates += res.duplicates;
    } catch (e) {
      if (e instanceof OtlpDecodeError) {
        this.tokens = Math.min(this.limits.burst, this.tokens + n);
        this.invalid(e.message);
        return { kind: 'invalid', reason: e.message };
      }
      const failed = n - problems.length;
      this.counters.received += n;
      this.counters.failed += failed;
      const reason = `storing ${failed} records failed: ${e instanceof Error ? e.message : String(e)}`;
      this.counters.lastError = reason;
      return { kind: 'failed', reason };
    }
    this.counters.received += n;
    this.counters.notFailing += notFailing;
    this.counters.unreadable += problems.length;
    if (problems.length === 0) return { kind: 'ok', partial: null };
    const first = problems[0]!;
    return {
      kind: 'ok',
      partial: {
        rejectedLogRecords: problems.length,
        errorMessage: `${problems.length} of ${n} records are not access logs; record ${first.index}: ${first.reason}`,
      },
    };
  }
}
