import type { Db } from './db';
import type { IntervalRow } from './rows';
import type { KubeEventRow } from './kube-events';

export interface SnapshotRow {
  pod_key: string;
  uid: string | null;
  namespace: string;
  name: string;
  /** The object's JSON; without its spec when `spec_hash` names it in pod_specs. */
  object: string;
  spec_hash: string | null;
  first_seen: number;
  seen: number;
  deleted_at: number | null;
  deleted_uncertain: number;
}

export interface TransitionRow {
  pod_key: string;
  namespace: string;
  pod: string;
  container: string | null;
  field: string;
  old_value: string | null;
  new_value: string | null;
  reported_at: number | null;
  observed_at: number;
  via: string;
}

export interface WatchStateRow {
  resource: string;
  resource_version: string | null;
  state: string | null;
  updated: number;
}

export interface CommitInfo {
  /** Rows written (or attempted: duplicates of events are ignored by the database). */
  rows: number;
  /** pod_intervals rows in the file after the commit (only computed when asked for). */
  intervalsTotal: number | null;
}

/**
 * Buffers writes and commits them in one transaction per batch: a busy watch costs one fsync
 * per batch, not per event. Rewrites of the same interval or snapshot within a batch collapse
 * into the last one.
 */
export class BatchWriter {
  private intervals = new Map<string, IntervalRow>();
  private snapshots = new Map<string, SnapshotRow>();
  private specs = new Map<string, string>();
  private transitions: TransitionRow[] = [];
  private events: KubeEventRow[] = [];
  private watch = new Map<string, WatchStateRow>();
  private closures: { podKey: string; at: number }[] = [];
  private readonly commit: () => number;
  private readonly countIntervals: () => number;
  commits = 0;
  rowsWritten = 0;
  /** Commits that wrote pod IP intervals (or closed them): what an IpHistory loaded before misses. */
  intervalCommits = 0;

  constructor(
    db: Db,
    private readonly onCommit?: (info: CommitInfo) => void,
  ) {
    const upsertInterval = db.prepare(`
      INSERT INTO pod_intervals (pod_key, ip, namespace, name, uid, owner_kind, owner_name, node,
        "from", from_source, deletion_started_at, grace_ends_at, gone_at, gone_uncertain, last_seen_at)
      VALUES (@pod_key, @ip, @namespace, @name, @uid, @owner_kind, @owner_name, @node,
        @from, @from_source, @deletion_started_at, @grace_ends_at, @gone_at, @gone_uncertain, @last_seen_at)
      ON CONFLICT (pod_key, ip) DO UPDATE SET namespace = excluded.namespace, name = excluded.name,
        uid = excluded.uid, owner_kind = excluded.owner_kind, owner_name = excluded.owner_name,
        node = excluded.node, "from" = excluded."from", from_source = excluded.from_source,
        deletion_started_at = excluded.deletion_started_at, grace_ends_at = excluded.grace_ends_at,
        gone_at = excluded.gone_at, gone_uncertain = excluded.gone_uncertain,
        last_seen_at = max(coalesce(pod_intervals.last_seen_at, excluded.last_seen_at), coalesce(excluded.last_seen_at, pod_intervals.last_seen_at))`);
    const upsertSnapshot = db.prepare(`
      INSERT INTO pod_snapshots (pod_key, uid, namespace, name, object, spec_hash, first_seen, last_seen, deleted_at, deleted_uncertain)
      VALUES (@pod_key, @uid, @namespace, @name, @object, @spec_hash, @first_seen, @seen, @deleted_at, @deleted_uncertain)
      ON CONFLICT (pod_key) DO UPDATE SET uid = excluded.uid, namespace = excluded.namespace,
        name = excluded.name, object = excluded.object, spec_hash = excluded.spec_hash, last_seen = max(pod_snapshots.last_seen, excluded.last_seen),
        first_seen = min(pod_snapshots.first_seen, excluded.first_seen),
        deleted_at = excluded.deleted_at, deleted_uncertain = excluded.deleted_uncertain`);
    const insertSpec = db.prepare('INSERT OR IGNORE INTO pod_specs (hash, spec) VALUES (?, ?)');
    const insertTransition = db.prepare(`
      INSERT INTO transitions (pod_key, namespace, pod, container, field, old_value, new_value, reported_at, observed_at, via)
      VALUES (@pod_key, @namespace, @pod, @container, @field, @old_value, @new_value, @reported_at, @observed_at, @via)`);
    const insertEvent = db.prepare(`
      INSERT OR IGNORE INTO kube_events (event_key, count, involved_uid, involved_kind, namespace, name,
        reason, message, type, field_path, source, first_ts, last_ts, observed_at)
      VALUES (@event_key, @count, @involved_uid, @involved_kind, @namespace, @name,
        @reason, @message, @type, @field_path, @source, @first_ts, @last_ts, @observed_at)`);
    const upsertWatch = db.prepare(`
      INSERT INTO watch_state (resource, resource_version, state, updated)
      VALUES (@resource, @resource_version, @state, @updated)
      ON CONFLICT (resource) DO UPDATE SET resource_version = coalesce(excluded.resource_version, watch_state.resource_version),
        state = coalesce(excluded.state, watch_state.state), updated = excluded.updated`);
    const closeIntervals = db.prepare(
      'UPDATE pod_intervals SET gone_at = ?, gone_uncertain = 1 WHERE pod_key = ? AND gone_at IS NULL',
    );
    const closeSnapshot = db.prepare(
      'UPDATE pod_snapshots SET deleted_at = ?, deleted_uncertain = 1 WHERE pod_key = ? AND deleted_at IS NULL',
    );
    const count = db.prepare('SELECT count(*) AS n FROM pod_intervals').pluck();
    this.countIntervals = () => count.get() as number;
    this.commit = db.transaction((): number => {
      let n = 0;
      for (const [hash, spec] of this.specs) n += insertSpec.run(hash, spec).changes;
      for (const r of this.intervals.values()) n += upsertInterval.run(r).changes > 0 ? 1 : 0;
      for (const r of this.snapshots.values()) n += upsertSnapshot.run(r).changes > 0 ? 1 : 0;
      for (const r of this.transitions) n += insertTransition.run(r).changes;
      for (const r of this.events) n += insertEvent.run(r).changes;
      for (const r of this.watch.values()) upsertWatch.run(r);
      for (const c of this.closures) {
        n += closeIntervals.run(c.at, c.podKey).changes;
        closeSnapshot.run(c.at, c.podKey);
      }
      return n;
    });
  }

  get pending(): number {
    return (
      this.intervals.size +
      this.snapshots.size +
      this.specs.size +
      this.transitions.length +
      this.events.length +
      this.watch.size +
      this.closures.length
    );
  }

  interval(r: IntervalRow): void {
    this.intervals.set(`${r.pod_key}\u0000${r.ip}`, r);
  }
  snapshot(r: SnapshotRow): void {
    const prev = this.snapshots.get(r.pod_key);
    this.snapshots.set(
      r.pod_key,
      prev ? { ...r, first_seen: Math.min(prev.first_seen, r.first_seen) } : r,
    );
  }
  /** A pod spec by its content hash (written once: later writes of the same hash are ignored). */
  spec(hash: string, json: string): void {
    this.specs.set(hash, json);
  }
  transition(r: TransitionRow): void {
    this.transitions.push(r);
  }
  event(r: KubeEventRow): void {
    this.events.push(r);
  }
  watchState(r: WatchStateRow): void {
    const prev = this.watch.get(r.resource);
    this.watch.set(r.resource, {
      ...r,
      resource_version: r.resource_version ?? prev?.resource_version ?? null,
      state: r.state ?? prev?.state ?? null,
    });
  }
  /** Marks a pod gone at an uncertain time, at most `at` (applied after the batch's upserts). */
  close(podKey: string, at: number): void {
    this.closures.push({ podKey, at });
  }

  /** Commits what is pending in one transaction; on failure the batch is kept for a retry. */
  flush(): number {
    if (this.pending === 0) return 0;
    const n = this.commit();
    if (this.intervals.size > 0 || this.closures.length > 0) this.intervalCommits++;
    this.intervals = new Map();
    this.snapshots = new Map();
    this.specs = new Map();
    this.transitions = [];
    this.events = [];
    this.watch = new Map();
    this.closures = [];
    this.commits++;
    this.rowsWritten += n;
    if (this.onCommit) this.onCommit({ rows: n, intervalsTotal: this.countIntervals() });
    return n;
  }
}
