import type { KubeEvent, Pod } from '../../lib/kube/types';
import type { IpHistory } from '../../lib/ledger/ip-history';
import { DEFAULT_GAP_TOLERANCE_MS, lookupInSorted } from '../../lib/ledger/lookup';
import type { IpLookup, PodInterval } from '../../lib/ledger/types';
import { observePod } from '../../lib/ledger/observation';
import type { ObservedEvent } from '../kube/listwatch';
import { integrityCheck, openDatabase, type Db } from './db';
import { schemaVersion } from './schema';
import { diffStates, podState } from './pod-state';
import { PodIntervalTracker, type PreservedStart } from './tracker';
import { intervalToRow, mutableSpecFields, storePodKey, splitPod, toFromSource } from './rows';
import { createHash } from 'node:crypto';
import { kubeEventRow, type RecordedKubeEvent } from './kube-events';
import { BatchWriter } from './writer';
import type { HistoryStoreOptions, RecordCounts, StoreStats } from './options';
import { StoreReader, type PodSnapshot, type StoredTransition } from './reader';
import { DAY_MS, pruneBefore, type PruneResult } from './retention';

export type { HistoryStoreOptions, RecordCounts, StoreStats } from './options';
import { intervalTableFromText } from './interval-load';
import { DEFAULT_FAILURE_LIMITS, SqliteFailureStore } from './failures';
import { SqliteLayerEvents } from './layer-events';
import { FlushTimer } from './flush-timer';
import type { IntervalTable } from '../../lib/ledger/interval-table';

const MAX_ERRORS = 20;

/**
 * meshdx's history: pod IP intervals, last pod states (kept after deletion), container and
 * condition transitions, and Kubernetes events, in one SQLite file. Writes are buffered and
 * committed in batches; every read commits what is pending first. It answers "who held this IP
 * at that time" itself (an IpHistory); StorePodHistory (pod-history.ts) reads it for "what
 * happened to this pod".
 */
export class HistoryStore implements IpHistory {
  private readonly reader: StoreReader;
  private readonly writer: BatchWriter | null;
  private readonly tracker: PodIntervalTracker;
  /**
   * Each live pod's last version, whose state the next event is diffed against: the object the
   * watch feed hands every consumer (trimmed, never changed in place), so keeping it costs a
   * reference, not a copy of its state (a packed state was ~0.85 KB a pod, 17 MB at 20,000).
   */
  private readonly last = new Map<string, Pod>();
  /** The spec last written for each live pod (its mutable fields and hash): not serialised again. */
  private readonly lastSpec = new Map<string, { mutable: string; hash: string }>();
  private readonly preserved = new Map<string, Map<string, PreservedStart>>();
  /** Pods the file held as not deleted when opened: the only ones with a stored state to diff. */
  private readonly storedLive = new Set<string>();
  private readonly flushTimer: FlushTimer;
  /** Prunes that removed intervals (they move the interval revision too). */
  private intervalPrunes = 0;
  /** The IpHistory loadHistory last built, and the interval revision it was built at. */
  private loaded: { revision: number; table: IntervalTable } | null = null;
  private closed = false;
  readonly counts: RecordCounts = {
    podEvents: 0,
    kubeEvents: 0,
    invalid: 0,
    transitions: 0,
    closedMissing: 0,
  };
  readonly errors: string[] = [];
  lastError: string | null = null;
  lastPrune: PruneResult | null = null;
  /** The failing requests meshdx read, with their attribution then (see FailureStore). */
  readonly failures: SqliteFailureStore;
  /** What the layers that hold pod IPs were seen to let go of (the layer sampler's events). */
  readonly layers: SqliteLayerEvents;

  constructor(
    readonly db: Db,
    private readonly opts: HistoryStoreOptions = {},
  ) {
    this.reader = new StoreReader(db);
    this.writer = opts.readonly ? null : new BatchWriter(db, opts.onCommit);
    if (this.writer) {
      for (const r of this.reader.liveStarts()) {
        const byIp = this.preserved.get(r.pod_key) ?? new Map<string, PreservedStart>();
        byIp.set(r.ip, { from: r.from, fromSource: toFromSource(r.from_source) });
        this.preserved.set(r.pod_key, byIp);
      }
      for (const key of this.reader.undeletedSnapshotKeys()) this.storedLive.add(key);
    }
    this.flushTimer = new FlushTimer(() => this.flush(), opts.flushIntervalMs ?? 250);
    this.tracker = new PodIntervalTracker((k, ip) => this.preserved.get(k)?.get(ip));
    this.layers = new SqliteLayerEvents(db, opts.readonly === true);
    this.failures = new SqliteFailureStore(
      db,
      opts.failureLimits ?? DEFAULT_FAILURE_LIMITS,
      opts.readonly === true,
    );
  }

  /**
   * Changes when committed pod IP intervals change (a commit, or a prune that removed some): an
   * IpHistory loaded at one revision answers like the store until the next (pending rows are
   * committed within the flush interval, or by any read).
   */
  get intervalRevision(): number {
    return (this.writer?.intervalCommits ?? 0) + this.intervalPrunes;
  }

  /** Rows waiting for the next commit. */
  get pending(): number {
    return this.writer?.pending ?? 0;
  }

  recordPodEvent(ev: ObservedEvent<Pod>): void {
    const w = this.writable();
    this.counts.podEvents++;
    const at = ev.observedAt.getTime();
    const obs = observePod(ev.object);
    if (typeof obs === 'string') return this.invalid(`pod ${ev.type}: ${obs}`);
    const key = storePodKey(obs.uid, obs.namespace, obs.name);
    const deleted = ev.type === 'DELETED';
    const uncertain = ev.via === 'reconcile';

    const next = podState(ev.object);
    const before = this.last.get(key);
    let prev = before === undefined ? null : podState(before);
    if (!prev && this.storedLive.delete(key)) {
      const stored = this.reader.snapshotObject(key);
      if (stored) prev = podState(stored);
    }
    const changes = prev || ev.via !== 'list' ? diffStates(prev, next) : [];
    for (const c of changes) {
      w.transition({
        pod_key: key,
        namespace: obs.namespace,
        pod: obs.name,
        container: c.container,
        field: c.field,
        old_value: c.oldValue,
        new_value: c.newValue,
        reported_at: c.reportedAt,
        observed_at: at,
        via: ev.via,
      });
    }
    this.counts.transitions += changes.length;

    const untimed = this.opts.clock === 'objects';
    for (const i of this.tracker.apply(key, { type: ev.type, pod: obs, at, uncertain, untimed }))
      w.interval(intervalToRow(key, i));
    const { object, spec } = splitPod(ev.object);
    let specHash: string | null = null;
    if (spec) {
      // the spec is serialised and hashed only when the fields a pod update may change moved
      const mutable = mutableSpecFields(spec);
      const seen = this.lastSpec.get(key);
      if (seen?.mutable === mutable) specHash = seen.hash;
      else {
        const json = JSON.stringify(spec);
        specHash = createHash('sha256').update(json).digest('base64url');
        this.lastSpec.set(key, { mutable, hash: specHash });
        w.spec(specHash, json);
      }
    }
    w.snapshot({
      pod_key: key,
      uid: obs.uid,
      namespace: obs.namespace,
      name: obs.name,
      object,
      spec_hash: specHash,
      first_seen: at,
      seen: at,
      deleted_at: deleted ? at : null,
      deleted_uncertain: deleted && uncertain ? 1 : 0,
    });
    if (deleted) this.forget(key);
    else this.last.set(key, ev.object);
    this.noteWatch('pods', ev.object.metadata?.resourceVersion ?? null, at);
    this.maybeFlush();
  }

  recordKubeEvent(ev: ObservedEvent<KubeEvent>): void {
    const w = this.writable();
    this.counts.kubeEvents++;
    const at = ev.observedAt.getTime();
    const row = kubeEventRow(ev.object, at);
    if (!row) return this.invalid(`event ${ev.type}: not an Event with metadata.name`);
    w.event(row);
    this.noteWatch('events', ev.object.metadata?.resourceVersion ?? null, at);
    this.maybeFlush();
  }

  /**
   * Pod IP intervals another store recorded (a gathered archive's), written as they were: the
   * pods that are gone keep their IPs' history here too. An interval of a pod the feeds see
   * again is the same row (pod key and IP), updated by what they see.
   */
  importIntervals(intervals: Iterable<PodInterval>): number {
    const w = this.writable();
    let n = 0;
    for (const i of intervals) {
      w.interval(intervalToRow(storePodKey(i.uid, i.namespace, i.name), i));
      n++;
    }
    this.flush();
    return n;
  }

  /** Records a watcher's state (listing, watching, retrying...) for health reporting. */
  recordWatchState(resource: string, state: string, at: number): void {
    this.writable().watchState({ resource, resource_version: null, state, updated: at });
    this.maybeFlush();
  }

  /** Pods the store holds as live (not deleted, or with an open interval). */
  livePodKeys(): Set<string> {
    this.flush();
    return this.reader.livePodKeys();
  }

  /**
   * Closes pods the store held as live that a fresh list no longer has: gone at an uncertain
   * time between their last sighting and `at`. Returns how many were closed.
   */
  closeMissing(liveBefore: Iterable<string>, seen: ReadonlySet<string>, at: number): number {
    const w = this.writable();
    let n = 0;
    for (const key of liveBefore) {
      if (seen.has(key)) continue;
      w.close(key, at);
      this.forget(key);
      n++;
    }
    this.counts.closedMissing += n;
    this.flush();
    return n;
  }

  /** Commits everything pending in one transaction. Returns the rows written. */
  flush(): number {
    this.flushTimer.cancel();
    if (!this.writer || this.closed) return 0;
    try {
      const n = this.writer.flush();
      this.lastError = null;
      return n;
    } catch (e) {
      this.lastError = `commit failed: ${e instanceof Error ? e.message : String(e)}`;
      throw e;
    }
  }

  /** Who held `ip` at `time`, read from the database (one indexed query per lookup). */
  at(ip: string, time: number, gapToleranceMs = DEFAULT_GAP_TOLERANCE_MS): IpLookup {
    return lookupInSorted(ip, time, this.history(ip), gapToleranceMs);
  }

  /** The intervals of one IP, sorted by start (then pod key). */
  history(ip: string): PodInterval[] {
    return this.read((r) => r.intervalsForIp(ip));
  }

  /** Every interval, ordered by IP then start. */
  intervals(): PodInterval[] {
    return this.read((r) => [...r.allIntervals()]);
  }

  /**
   * The same IpHistory loaded into memory, for many lookups (a view's attribution, the OTLP
   * receiver's, a `meshdx attribute` run): columns, not a query per lookup. The store that
   * writes keeps it and builds it again only once its interval revision moved, so every reader
   * of the runtime (Incidents, the receiver) shares one table per revision; a read-only store
   * (another process may write the file) reads it again each time.
   */
  loadHistory(): IntervalTable {
    this.flush();
    return this.committedHistory();
  }

  /**
   * loadHistory without committing what is pending first: the table of the committed revision,
   * the one loadHistory shares. For a reader called for every request it gets (the OTLP
   * receiver): a commit per request would move the revision, and build a table, each time.
   */
  committedHistory(): IntervalTable {
    const revision = this.intervalRevision;
    if (this.writer && this.loaded?.revision === revision) return this.loaded.table;
    const { table, skipped } = intervalTableFromText(this.reader.intervalTextBatches());
    if (skipped > 0)
      this.invalid(`${skipped} pod_intervals rows without a text ip or a numeric start`);
    this.loaded = this.writer ? { revision, table } : null;
    return table;
  }

  podSnapshot(namespace: string, name: string): PodSnapshot | null {
    return this.read((r) => r.podSnapshot(namespace, name));
  }

  podSnapshotByUid(uid: string): PodSnapshot | null {
    return this.read((r) => r.podSnapshotByUid(uid));
  }

  deletedPods(since?: number): PodSnapshot[] {
    return this.read((r) => r.deletedPods(since));
  }

  transitions(uid: string): StoredTransition[] {
    return this.read((r) => r.transitions(uid));
  }

  eventsFor(uid: string): RecordedKubeEvent[] {
    return this.read((r) => r.eventsFor(uid));
  }

  eventsForObject(namespace: string, name: string, kind = 'Pod'): RecordedKubeEvent[] {
    return this.read((r) => r.eventsForObject(namespace, name, kind));
  }

  /** Applies the retention settings (pod history: null when none is set; failures: always). */
  prune(now = Date.now()): PruneResult | null {
    if (!this.opts.readonly) this.failures.prune(now);
    const days = this.opts.retentionDays;
    if (days === null || days === undefined || this.opts.readonly) return null;
    this.flush();
    this.lastPrune = pruneBefore(this.db, now - days * DAY_MS);
    if (this.lastPrune.intervals > 0) this.intervalPrunes++;
    return this.lastPrune;
  }

  stats(): StoreStats {
    this.flush();
    return {
      schemaVersion: schemaVersion(this.db),
      tables: this.reader.tableStats(),
      pending: this.writer?.pending ?? 0,
      commits: this.writer?.commits ?? 0,
      counts: { ...this.counts },
      lastError: this.lastError,
      lastPrune: this.lastPrune,
      watch: this.reader.watchStates().map((r) => ({
        resource: r.resource,
        resourceVersion: r.resource_version,
        state: r.state,
        updated: r.updated,
      })),
    };
  }

  integrityCheck(): string {
    return integrityCheck(this.db);
  }

  close(): void {
    if (this.closed) return;
    try {
      this.flush();
    } finally {
      this.closed = true;
      this.loaded = null;
      this.db.close();
    }
  }

  /** A read of the database, after what is pending is committed. */
  private read<T>(f: (r: StoreReader) => T): T {
    this.flush();
    return f(this.reader);
  }

  private writable(): BatchWriter {
    if (!this.writer) throw new Error('the history store is open read-only');
    if (this.closed) throw new Error('the history store is closed');
    return this.writer;
  }

  private forget(key: string): void {
    this.last.delete(key);
    this.lastSpec.delete(key);
    this.tracker.forget(key);
    this.preserved.delete(key);
  }

  private invalid(message: string): void {
    this.counts.invalid++;
    if (this.errors.length < MAX_ERRORS) this.errors.push(message);
  }

  private noteWatch(resource: string, rv: string | null, at: number): void {
    if (rv) this.writer?.watchState({ resource, resource_version: rv, state: null, updated: at });
  }

  private maybeFlush(): void {
    const w = this.writer;
    if (!w) return;
    if (w.pending >= (this.opts.batchSize ?? 10_000)) this.flush();
    else this.flushTimer.schedule();
  }
}

/** Opens (creating and migrating when writable) the history store at `path` (':memory:' for tests). */
export function openHistoryStore(path: string, opts: HistoryStoreOptions = {}): HistoryStore {
  return new HistoryStore(openDatabase(path, { readonly: opts.readonly }), opts);
}
