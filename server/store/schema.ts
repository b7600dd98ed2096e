import type { Database } from 'better-sqlite3';
import { failureKeyOfColumns } from './failure-rows';

/**
 * The store's schema as forward migrations: migration N takes a database from version N-1 to N.
 * A file's version lives in meta('schema_version'). Never edit a released migration: add one.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: the base tables
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE pod_intervals (
    pod_key TEXT NOT NULL,
    ip TEXT NOT NULL,
    namespace TEXT NOT NULL,
    name TEXT NOT NULL,
    uid TEXT,
    owner_kind TEXT,
    owner_name TEXT,
    node TEXT,
    "from" INTEGER NOT NULL,
    from_source TEXT NOT NULL,
    deletion_started_at INTEGER,
    grace_ends_at INTEGER,
    gone_at INTEGER,
    gone_uncertain INTEGER NOT NULL DEFAULT 0,
    last_seen_at INTEGER,
    PRIMARY KEY (pod_key, ip)
  );
  CREATE INDEX pod_intervals_ip_from ON pod_intervals (ip, "from");
  CREATE INDEX pod_intervals_gone ON pod_intervals (gone_at);
  CREATE TABLE pod_snapshots (
    pod_key TEXT PRIMARY KEY,
    uid TEXT,
    namespace TEXT NOT NULL,
    name TEXT NOT NULL,
    object TEXT NOT NULL,
    first_seen INTEGER NOT NULL,
    last_seen INTEGER NOT NULL,
    deleted_at INTEGER,
    deleted_uncertain INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX pod_snapshots_name ON pod_snapshots (namespace, name, last_seen);
  CREATE INDEX pod_snapshots_deleted ON pod_snapshots (deleted_at);
  CREATE TABLE transitions (
    id INTEGER PRIMARY KEY,
    pod_key TEXT NOT NULL,
    namespace TEXT NOT NULL,
    pod TEXT NOT NULL,
    container TEXT,
    field TEXT NOT NULL,
    old_value TEXT,
    new_value TEXT,
    reported_at INTEGER,
    observed_at INTEGER NOT NULL,
    via TEXT NOT NULL
  );
  CREATE INDEX transitions_pod ON transitions (pod_key, observed_at);
  CREATE INDEX transitions_observed ON transitions (observed_at);
  CREATE TABLE kube_events (
    event_key TEXT NOT NULL,
    count INTEGER NOT NULL,
    involved_uid TEXT,
    involved_kind TEXT,
    namespace TEXT,
    name TEXT,
    reason TEXT,
    message TEXT,
    type TEXT,
    field_path TEXT,
    source TEXT,
    first_ts INTEGER,
    last_ts INTEGER,
    observed_at INTEGER NOT NULL,
    PRIMARY KEY (event_key, count)
  );
  CREATE INDEX kube_events_involved ON kube_events (involved_uid, last_ts);
  CREATE TABLE watch_state (
    resource TEXT PRIMARY KEY,
    resource_version TEXT,
    state TEXT,
    updated INTEGER NOT NULL
  );
  `,
  // 2: events looked up by object name (pods whose uid the event lacks), pruning by time
  `
  CREATE INDEX kube_events_object ON kube_events (namespace, involved_kind, name, last_ts);
  CREATE INDEX kube_events_observed ON kube_events (observed_at);
  `,
  // 3: a pod's spec is stored once, not with every status change: snapshots name it by hash
  // (the spec is ~85% of an injected pod's bytes and rarely changes within its life)
  `
  CREATE TABLE pod_specs (hash TEXT PRIMARY KEY, spec TEXT NOT NULL) WITHOUT ROWID;
  ALTER TABLE pod_snapshots ADD COLUMN spec_hash TEXT;
  CREATE INDEX pod_snapshots_spec ON pod_snapshots (spec_hash);
  `,
  // 4: failing requests as read (failures.ts), one per line and source proxy, and how far each
  // proxy's log has been read
  `
  CREATE TABLE failures (
    id INTEGER PRIMARY KEY,
    proxy TEXT NOT NULL,
    hash BLOB NOT NULL,
    proxy_uid TEXT,
    read TEXT NOT NULL,
    reads INTEGER NOT NULL,
    recorded_at INTEGER NOT NULL,
    at INTEGER NOT NULL,
    time INTEGER,
    code INTEGER,
    flags TEXT NOT NULL,
    method TEXT,
    authority TEXT,
    path TEXT,
    duration_ms INTEGER,
    upstream_host TEXT,
    upstream_cluster TEXT,
    downstream_remote TEXT,
    request_id TEXT,
    details TEXT,
    upstream_ip TEXT,
    pod_namespace TEXT,
    pod_name TEXT,
    pod_uid TEXT,
    owner_kind TEXT,
    owner_name TEXT,
    state TEXT NOT NULL,
    deletion_started_at INTEGER,
    gone_at INTEGER,
    after_termination_ms INTEGER,
    reason TEXT NOT NULL,
    raw TEXT NOT NULL,
    bytes INTEGER NOT NULL,
    UNIQUE (proxy, hash)
  );
  CREATE INDEX failures_time ON failures (time, proxy);
  CREATE INDEX failures_at ON failures (at);
  CREATE TABLE failure_reads (
    proxy TEXT PRIMARY KEY,
    proxy_uid TEXT,
    read_to INTEGER NOT NULL,
    read_at INTEGER NOT NULL,
    read TEXT NOT NULL
  );
  `,
  // 5: from when a proxy's reads cover its log (null: from the start of what the log held)
  `
  ALTER TABLE failure_reads ADD COLUMN read_from INTEGER;
  `,
  // 6: frozen views (snapshots.ts): a view's JSON as served, under an unguessable id
  `
  CREATE TABLE view_snapshots (
    id TEXT PRIMARY KEY,
    view TEXT NOT NULL,
    query TEXT NOT NULL,
    url TEXT NOT NULL,
    made_by TEXT,
    auth_mode TEXT NOT NULL,
    frozen_at INTEGER NOT NULL,
    body TEXT NOT NULL,
    bytes INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX view_snapshots_frozen ON view_snapshots (frozen_at);
  `,
  // 7: a failing request is one row whichever way it came (its log, the receiver): keyed by its
  // identity (failure-rows.ts failure_key) under a unique index led by its time, so new rows add
  // to the end of the index; (time, proxy) is no longer needed beside it
  `
  CREATE TABLE failures_v7 (
    id INTEGER PRIMARY KEY,
    proxy TEXT NOT NULL,
    hash BLOB NOT NULL,
    proxy_uid TEXT,
    read TEXT NOT NULL,
    reads INTEGER NOT NULL,
    recorded_at INTEGER NOT NULL,
    at INTEGER NOT NULL,
    time INTEGER,
    code INTEGER,
    flags TEXT NOT NULL,
    method TEXT,
    authority TEXT,
    path TEXT,
    duration_ms INTEGER,
    upstream_host TEXT,
    upstream_cluster TEXT,
    downstream_remote TEXT,
    request_id TEXT,
    details TEXT,
    upstream_ip TEXT,
    pod_namespace TEXT,
    pod_name TEXT,
    pod_uid TEXT,
    owner_kind TEXT,
    owner_name TEXT,
    state TEXT NOT NULL,
    deletion_started_at INTEGER,
    gone_at INTEGER,
    after_termination_ms INTEGER,
    reason TEXT NOT NULL,
    raw TEXT NOT NULL,
    bytes INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX failures_key ON failures_v7 (coalesce(time, 0), hash);
  INSERT INTO failures_v7 SELECT id, proxy,
    failure_key(proxy, time, method, authority, path, code, flags, duration_ms, upstream_host, request_id, raw),
    proxy_uid, read, reads, recorded_at, at, time, code, flags, method, authority, path, duration_ms,
    upstream_host, upstream_cluster, downstream_remote, request_id, details, upstream_ip,
    pod_namespace, pod_name, pod_uid, owner_kind, owner_name, state, deletion_started_at, gone_at,
    after_termination_ms, reason, raw, bytes
    FROM failures WHERE true ORDER BY id
    ON CONFLICT (coalesce(time, 0), hash) DO UPDATE SET reads = reads | excluded.reads;
  DROP TABLE failures;
  ALTER TABLE failures_v7 RENAME TO failures;
  CREATE INDEX failures_at ON failures (at);
  `,
  // 8: a window of failing requests is read through an index of their time alone (read through
  // failures_key, a one-hour window of 1,000,000 records took 2.5 times as long)
  `
  CREATE INDEX failures_time ON failures (time);
  `,
  // 9: what each layer that holds a pod's IP was seen to let go of, and when (layer-sampler.ts):
  // an incident's layer timeline after the pods are gone
  `
  CREATE TABLE layer_events (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    at INTEGER NOT NULL,
    since INTEGER NOT NULL,
    ip TEXT NOT NULL,
    proxy TEXT NOT NULL,
    detail TEXT NOT NULL
  );
  CREATE INDEX layer_events_at ON layer_events (at);
  `,
  // 10: the records that reached one pod, for its page: by uid, and by namespace and name for the
  // records without one (a whole store's window read and filtered took 10-13 s at 156,000); and
  // the records sent to terminating or gone pods, Timelines' drain figures
  `
  CREATE INDEX failures_pod_uid ON failures (pod_uid, time);
  CREATE INDEX failures_pod_name ON failures (pod_namespace, pod_name, time);
  CREATE INDEX failures_state ON failures (state, time);
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export class StoreVersionError extends Error {}

/** The file's schema version: 0 for an empty database. */
export function schemaVersion(db: Database): number {
  const hasMeta = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'")
    .get();
  if (!hasMeta) return 0;
  const row = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as
    { value: string } | undefined;
  const n = row ? Number(row.value) : 0;
  return Number.isInteger(n) && n >= 0 ? n : 0;
}

/**
 * Applies the migrations the file lacks, each in its own transaction, up to `target`
 * (default: the latest). Refuses a file written by a newer meshdx.
 */
export function migrate(db: Database, target = SCHEMA_VERSION): number {
  const from = schemaVersion(db);
  if (from > SCHEMA_VERSION) {
    throw new StoreVersionError(
      `store schema version ${from} is newer than this meshdx understands (${SCHEMA_VERSION}); upgrade meshdx or use another file`,
    );
  }
  // what migration 7 re-keys the failing requests written before it with
  if (from < 7) db.function('failure_key', { deterministic: true }, failureKeyOfColumns);
  for (let v = from + 1; v <= Math.min(target, SCHEMA_VERSION); v++) {
    const sql = MIGRATIONS[v - 1] as string;
    db.transaction(() => {
      db.exec(sql);
      db.prepare(
        "INSERT INTO meta (key, value) VALUES ('schema_version', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
      ).run(String(v));
    })();
  }
  return schemaVersion(db);
}
