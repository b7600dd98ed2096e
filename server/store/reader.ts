import type { Statement } from 'better-sqlite3';
import type { Pod } from '../../lib/kube/types';
import type { PodInterval } from '../../lib/ledger/types';
import { asObj } from '../../lib/ledger/observation';
import type { Db } from './db';
import { intervalFromRow, joinPodJson, type IntervalRow } from './rows';
import { INTERVAL_TEXT_BATCH } from './interval-load';
import { recordedFromRow, type KubeEventRow, type RecordedKubeEvent } from './kube-events';

/** The last state meshdx saw of a pod, kept after the pod is deleted. */
export interface PodSnapshot {
  podKey: string;
  uid: string | null;
  namespace: string;
  name: string;
  object: Pod | null;
  firstSeen: number;
  lastSeen: number;
  deletedAt: number | null;
  /** deletedAt is only an upper bound: the pod vanished while meshdx was not watching. */
  deletedUncertain: boolean;
}

export interface StoredTransition {
  container: string | null;
  field: string;
  oldValue: string | null;
  newValue: string | null;
  reportedAt: number | null;
  observedAt: number;
  via: string;
}

interface SnapshotDbRow {
  pod_key: string;
  uid: string | null;
  namespace: string;
  name: string;
  object: string;
  /** The spec's JSON from pod_specs (null for rows written before specs were kept apart). */
  spec: string | null;
  first_seen: number;
  last_seen: number;
  deleted_at: number | null;
  deleted_uncertain: number;
}

interface TransitionDbRow {
  container: string | null;
  field: string;
  old_value: string | null;
  new_value: string | null;
  reported_at: number | null;
  observed_at: number;
  via: string;
}

export interface TableStats {
  rows: number;
  oldest: number | null;
  newest: number | null;
}

/** A snapshot row with its spec joined back (pod_specs holds each distinct spec once). */
const SNAPSHOT =
  'SELECT s.*, p.spec AS spec FROM pod_snapshots s LEFT JOIN pod_specs p ON p.hash = s.spec_hash';

/** Prepared read statements over a store database. */
export class StoreReader {
  private readonly s: Record<string, Statement>;

  constructor(private readonly db: Db) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      byIp: p('SELECT * FROM pod_intervals WHERE ip = ? ORDER BY "from", pod_key'),
      all: p('SELECT * FROM pod_intervals ORDER BY ip, "from", pod_key'),
      intervalBatch: p(INTERVAL_TEXT_BATCH),
      podIntervals: p('SELECT * FROM pod_intervals WHERE pod_key = ? ORDER BY ip'),
      snapByName: p(
        `${SNAPSHOT} WHERE s.namespace = ? AND s.name = ? ORDER BY s.last_seen DESC LIMIT 1`,
      ),
      snapByKey: p(`${SNAPSHOT} WHERE s.pod_key = ? OR s.uid = ? LIMIT 1`),
      snapObject: p(`${SNAPSHOT} WHERE s.pod_key = ?`),
      deleted: p(
        `${SNAPSHOT} WHERE s.deleted_at IS NOT NULL AND s.deleted_at >= ? ORDER BY s.deleted_at DESC`,
      ),
      transitions: p(
        'SELECT container, field, old_value, new_value, reported_at, observed_at, via FROM transitions WHERE pod_key = ? ORDER BY observed_at, id',
      ),
      eventsByUid: p(
        'SELECT * FROM kube_events WHERE involved_uid = ? ORDER BY coalesce(last_ts, observed_at), count',
      ),
      eventsByObject: p(
        'SELECT * FROM kube_events WHERE namespace = ? AND involved_kind = ? AND name = ? ORDER BY coalesce(last_ts, observed_at), count',
      ),
      livePods: p(
        'SELECT pod_key FROM pod_snapshots WHERE deleted_at IS NULL UNION SELECT pod_key FROM pod_intervals WHERE gone_at IS NULL',
      ),
      undeleted: p('SELECT pod_key FROM pod_snapshots WHERE deleted_at IS NULL'),
      liveStarts: p(
        'SELECT pod_key, ip, "from", from_source FROM pod_intervals WHERE gone_at IS NULL',
      ),
      watchState: p('SELECT * FROM watch_state ORDER BY resource'),
    };
  }

  intervalsForIp(ip: string): PodInterval[] {
    return (this.st('byIp').all(ip) as IntervalRow[]).map(intervalFromRow);
  }

  *allIntervals(): Generator<PodInterval> {
    for (const r of this.st('all').iterate() as Iterable<IntervalRow>) yield intervalFromRow(r);
  }

  /** Every interval as lines of INTERVAL_TEXT_BATCH, `batchRows` intervals per text. */
  *intervalTextBatches(batchRows = 20_000): Generator<string> {
    const st = this.st('intervalBatch').raw();
    for (let after: number | bigint = 0; ;) {
      const [last, rows, text] = st.get(after, batchRows) as [
        number | bigint | null,
        number,
        string | null,
      ];
      if (!rows || last === null || text === null) return;
      yield text;
      after = last;
    }
  }

  intervalsOfPod(podKey: string): PodInterval[] {
    return (this.st('podIntervals').all(podKey) as IntervalRow[]).map(intervalFromRow);
  }

  podSnapshot(namespace: string, name: string): PodSnapshot | null {
    const r = this.st('snapByName').get(namespace, name) as SnapshotDbRow | undefined;
    return r ? snapshotFromRow(r) : null;
  }

  podSnapshotByUid(uid: string): PodSnapshot | null {
    const r = this.st('snapByKey').get(uid, uid) as SnapshotDbRow | undefined;
    return r ? snapshotFromRow(r) : null;
  }

  /** The stored object JSON of a pod (for diffing after a restart), or null. */
  snapshotObject(podKey: string): unknown {
    const r = this.st('snapObject').get(podKey) as SnapshotDbRow | undefined;
    return r && r.deleted_at === null ? parseObject(r.object, r.spec) : null;
  }

  deletedPods(since = 0): PodSnapshot[] {
    return (this.st('deleted').all(since) as SnapshotDbRow[]).map(snapshotFromRow);
  }

  transitions(podKey: string): StoredTransition[] {
    return (this.st('transitions').all(podKey) as TransitionDbRow[]).map((r) => ({
      container: r.container,
      field: r.field,
      oldValue: r.old_value,
      newValue: r.new_value,
      reportedAt: r.reported_at,
      observedAt: r.observed_at,
      via: r.via,
    }));
  }

  eventsFor(uid: string): RecordedKubeEvent[] {
    return (this.st('eventsByUid').all(uid) as KubeEventRow[]).map(recordedFromRow);
  }

  eventsForObject(namespace: string, name: string, kind = 'Pod'): RecordedKubeEvent[] {
    return (this.st('eventsByObject').all(namespace, kind, name) as KubeEventRow[]).map(
      recordedFromRow,
    );
  }

  /** Keys of the pods whose snapshot is not marked deleted. */
  undeletedSnapshotKeys(): string[] {
    return this.st('undeleted').pluck().all() as string[];
  }

  livePodKeys(): Set<string> {
    return new Set(this.st('livePods').pluck().all() as string[]);
  }

  liveStarts(): { pod_key: string; ip: string; from: number; from_source: string }[] {
    return this.st('liveStarts').all() as {
      pod_key: string;
      ip: string;
      from: number;
      from_source: string;
    }[];
  }

  watchStates(): {
    resource: string;
    resource_version: string | null;
    state: string | null;
    updated: number;
  }[] {
    return this.st('watchState').all() as {
      resource: string;
      resource_version: string | null;
      state: string | null;
      updated: number;
    }[];
  }

  tableStats(): Record<'intervals' | 'snapshots' | 'transitions' | 'events', TableStats> {
    const q = (sql: string): TableStats => {
      const r = this.db.prepare(sql).get() as {
        rows: number;
        oldest: number | null;
        newest: number | null;
      };
      return { rows: r.rows, oldest: r.oldest, newest: r.newest };
    };
    return {
      intervals: q(
        'SELECT count(*) AS rows, min("from") AS oldest, max(coalesce(gone_at, last_seen_at, "from")) AS newest FROM pod_intervals',
      ),
      snapshots: q(
        'SELECT count(*) AS rows, min(first_seen) AS oldest, max(coalesce(deleted_at, last_seen)) AS newest FROM pod_snapshots',
      ),
      transitions: q(
        'SELECT count(*) AS rows, min(observed_at) AS oldest, max(observed_at) AS newest FROM transitions',
      ),
      events: q(
        'SELECT count(*) AS rows, min(coalesce(last_ts, observed_at)) AS oldest, max(coalesce(last_ts, observed_at)) AS newest FROM kube_events',
      ),
    };
  }

  private st(name: string): Statement {
    const s = this.s[name];
    if (!s) throw new Error(`no statement ${name}`);
    return s;
  }
}

function parseObject(text: string, spec: string | null): unknown {
  try {
    return joinPodJson(text, spec);
  } catch {
    return null;
  }
}

function snapshotFromRow(r: SnapshotDbRow): PodSnapshot {
  const obj = asObj(parseObject(r.object, r.spec));
  const pod = obj && asObj(obj.metadata) ? (obj as unknown as Pod) : null;
  return {
    podKey: r.pod_key,
    uid: r.uid,
    namespace: r.namespace,
    name: r.name,
    object: pod,
    firstSeen: r.first_seen,
    lastSeen: r.last_seen,
    deletedAt: r.deleted_at,
    deletedUncertain: r.deleted_uncertain !== 0,
  };
}
