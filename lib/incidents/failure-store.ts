/**
 * Failing requests kept in the history store: the evidence of an incident, recorded as meshdx
 * reads it (a view's log read, the live tail, an upload, the OTLP receiver, the read of a client
 * proxy's log before its pod goes), so a link reopens the same failures after the pods are gone.
 *
 * Recording a batch (every reader does it the same way):
 *
 * ```ts
 * const batch = records.map((r) =>
 *   failureOf(r.raw, r.record, { read: 'otlp', proxy: 'shop/web-7f9c-abcde', proxyUid }, history),
 * );
 * const { added, duplicates } = store.failures.record(batch, clusterNowMs);
 * ```
 *
 * `failureOf` (failure-record.ts) parses nothing: it takes the record the access-log parser (or
 * the OTLP decoder) made, attributes its upstream IP with the IpHistory at hand, and returns a
 * FailureInput. `record` writes the whole batch in one transaction; the same request through
 * the same client proxy is one record (its identity: failure-identity.ts), so reading a log
 * twice adds nothing, and a request read from the proxy's log and also sent to the receiver is
 * kept once. A record without an upstream address or a time is stored as `unattributable`,
 * never dropped.
 */
import { unattributable, type Attribution } from '../ledger/attribution';
import type { HolderState } from '../ledger/types';
import type { PodIdentity } from '../refs/pod-ref';

/** How meshdx came to read a failing request. */
export type FailureRead =
  /** The Incidents view read the client proxy's log (pods/log). */
  | 'view'
  /** The live tail followed the proxy's log. */
  | 'live'
  /** A user uploaded a log. */
  | 'upload'
  /** The OTLP access-log receiver got it from the proxy. */
  | 'otlp'
  /** The proxy's log read once when its pod's deletion started, before the container went. */
  | 'deletion';

export const FAILURE_READS: readonly FailureRead[] = ['view', 'live', 'upload', 'otlp', 'deletion'];

/** Which proxy wrote (or sent) the line, and which read brought it in. */
export interface FailureSource {
  read: FailureRead;
  /**
   * The proxy's pod as `ns/name` (lib/refs podKey), or for an upload without a pod prefix a
   * label such as `upload:access.log`. Together with the line's content it is the record's key.
   */
  proxy: string;
  /** The proxy pod's uid, when known (a namesake pod later is another proxy). */
  proxyUid: string | null;
}

/**
 * The upstream pod's state as the store keeps it (its own words, written in every stored row):
 * an Attribution's state, and `unattributable` for the `unknown` of a record without an
 * upstream IP or a time. toStoredAttribution and attributedState translate, and nothing else.
 */
export type AttributedState = 'running' | 'terminating' | 'gone' | 'unknown' | 'unattributable';

export const ATTRIBUTED_STATES: readonly AttributedState[] = [
  'running',
  'terminating',
  'gone',
  'unknown',
  'unattributable',
];

/** An Attribution's state in the store's words (an unattributable record aside). */
const STORED_STATE: Readonly<Record<HolderState, AttributedState>> = {
  live: 'running',
  terminating: 'terminating',
  terminated: 'gone',
  unknown: 'unknown',
};

/** The fields of the request that the views read (parsed once, when recorded). */
export interface FailureFields {
  /** Request start, epoch ms; null when the line had none. */
  time: number | null;
  code: number | null;
  flags: string[];
  method: string | null;
  authority: string | null;
  path: string | null;
  /** Total duration in ms. */
  durationMs: number | null;
  /** Upstream host as logged (ip:port). */
  upstreamHost: string | null;
  upstreamCluster: string | null;
  downstreamRemote: string | null;
  requestId: string | null;
  details: string | null;
}

/**
 * The Attribution of a recorded request as the store keeps it, made when the request was
 * recorded (toStoredAttribution): who held the upstream IP, its deletion and removal, and the state
 * in the store's words.
 */
export type StoredAttribution = Pick<
  Attribution,
  'upstreamIp' | 'owner' | 'deletionStartedAt' | 'goneAt' | 'afterTerminationMs' | 'reason'
> & {
  pod: PodIdentity | null;
  state: AttributedState;
};

/** An attribution as a stored failure keeps it; `time` is its record's (epoch ms). */
export function toStoredAttribution(a: Attribution, time: number | null): StoredAttribution {
  return {
    upstreamIp: a.upstreamIp,
    pod: a.pod,
    owner: a.owner,
    state: unattributable(a, time) ? 'unattributable' : STORED_STATE[a.state],
    deletionStartedAt: a.deletionStartedAt,
    goneAt: a.goneAt,
    afterTerminationMs: a.afterTerminationMs,
    reason: a.reason,
  };
}

/** A stored state as an Attribution's (an unattributable record is `unknown`). */
export function attributedState(s: AttributedState): HolderState {
  switch (s) {
    case 'running':
      return 'live';
    case 'gone':
      return 'terminated';
    case 'unattributable':
      return 'unknown';
    default:
      return s;
  }
}

/** One failing request to record. */
export interface FailureInput {
  /** The line as read (for the receiver: the record's body as received). */
  raw: string;
  source: FailureSource;
  fields: FailureFields;
  attribution: StoredAttribution;
}

/** A recorded failing request. */
export interface StoredFailure extends FailureInput {
  id: number;
  /** When meshdx recorded it (cluster clock, epoch ms). */
  recordedAt: number;
}

export interface RecordResult {
  /** New records. */
  added: number;
  /** Requests already recorded from the same proxy (by any read). */
  duplicates: number;
  /** Oldest records deleted to stay within the size limit. */
  evicted: number;
}

export interface FailureWindow {
  fromMs: number;
  toMs: number;
}

export interface FailureQuery extends FailureWindow {
  /** Only these source proxies (`ns/name`); absent: every proxy. */
  proxies?: readonly string[];
  /** At most this many records, oldest first (default: all). */
  limit?: number;
  /**
   * Only the records that reached this pod: by uid where the record has one, else by namespace
   * and name (failuresHitting's rule, applied by the store through its pod indexes).
   */
  pod?: PodIdentity;
  /** Only the records of these attributed states (`terminating`, `gone`: a termination's). */
  states?: readonly AttributedState[];
}

/** Up to when a proxy's log has been read, so a later read asks only for what is newer. */
export interface ReadWatermark {
  proxy: string;
  proxyUid: string | null;
  /** The time of the newest line read (epoch ms). */
  readTo: number;
  /**
   * From when the reads cover the log without a gap (epoch ms); null or absent: from the start
   * of what the container's log held.
   */
  readFrom?: number | null;
  /** When the read was made. */
  readAt: number;
  read: FailureRead;
}

/** What the store keeps of raw records, for the page and /api/health. */
export interface FailureRetention {
  records: number;
  /** Approximate bytes the records take (raw line plus fields). */
  bytes: number;
  /** Oldest request time kept (or record time for untimed records); null when empty. */
  oldest: number | null;
  maxAgeDays: number;
  maxBytes: number;
  /** Records deleted by age or size since the store opened. */
  pruned: number;
  lastPruneAt: number | null;
}

/** The failing requests of the context's history store. */
export interface FailureStore {
  /** Records a batch in one transaction (see the module comment). */
  record(batch: Iterable<FailureInput>, recordedAt: number): RecordResult;
  /** Recorded failures with a request time in [fromMs, toMs], oldest first. */
  inWindow(q: FailureQuery): StoredFailure[];
  /** How many recorded failures fall in the window, by read. */
  countsInWindow(q: FailureQuery): Record<FailureRead, number>;
  /** The source proxies of the recorded failures in the window (each once). */
  proxiesInWindow(q: FailureWindow): string[];
  /** The read watermark of a proxy (`ns/name`), null when never read. */
  watermark(proxy: string): ReadWatermark | null;
  /**
   * Moves a proxy's watermark forward (never back). Its coverage starts at the earlier of the
   * two `readFrom`s, unless the new read starts after the old one ended (a gap): then at the new.
   */
  markRead(w: ReadWatermark): void;
  /** Applies the age and size limits, oldest first; returns how many records went. */
  prune(now: number): number;
  retention(): FailureRetention;
}
