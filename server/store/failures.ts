import type { Statement } from 'better-sqlite3';
import type { Db } from './db';
import type {
  FailureInput,
  FailureQuery,
  FailureRead,
  FailureRetention,
  FailureStore,
  FailureWindow,
  ReadWatermark,
  RecordResult,
  StoredFailure,
} from '../../lib/incidents/failure-store';
import { DAY_MS } from './retention';
import {
  asRead,
  INSERT_COLUMNS,
  rowValues,
  toStored,
  writeFailureKey,
  type FailureRow,
} from './failure-rows';

export interface FailureLimits {
  /** Records whose request (or, untimed, record) time is older than this many days go. */
  maxAgeDays: number;
  /** Above this many bytes of records, the oldest go until a tenth is free again. */
  maxBytes: number;
}

/** Small-volume defaults (docs/operating.md settings table). */
export const DEFAULT_FAILURE_LIMITS: FailureLimits = {
  maxAgeDays: 14,
  maxBytes: 256 * 1024 * 1024,
};

/** The window condition: one range of the index `failures_time` (untimed records never fall in one). */
const IN_WINDOW = 'time BETWEEN @from AND @to';

/** The query's other conditions than its window: its source proxies, the pod it reached. */
const proxiesClause = (q: FailureQuery) =>
  (q.proxies ? ' AND proxy IN (SELECT value FROM json_each(@proxies))' : '') +
  (q.pod === undefined
    ? ''
    : q.pod.uid
      ? ' AND (pod_uid = @podUid OR (pod_uid IS NULL AND pod_namespace = @podNs AND pod_name = @podName))'
      : ' AND pod_namespace = @podNs AND pod_name = @podName') +
  (q.states ? ' AND state IN (SELECT value FROM json_each(@states))' : '');
const windowParams = (q: FailureQuery) => ({
  from: q.fromMs,
  to: q.toMs,
  ...(q.proxies ? { proxies: JSON.stringify(q.proxies) } : {}),
  ...(q.states ? { states: JSON.stringify(q.states) } : {}),
  ...(q.pod !== undefined
    ? {
        podNs: q.pod.namespace,
        podName: q.pod.name,
        ...(q.pod.uid ? { podUid: q.pod.uid } : {}),
      }
    : {}),
});

/**
 * The failing requests of a history store file (table `failures`, migrations 4 and 7), with
 * their read watermarks (`failure_reads`). Writes commit at once, one transaction per batch;
 * the age and size limits are applied by prune() and, for size, after every batch that crosses
 * the limit.
 */
export class SqliteFailureStore implements FailureStore {
  private totalBytes: number;
  private totalRecords: number;
  private pruned = 0;
  private lastPruneAt: number | null = null;
  private statements: { insert: Statement; addRead: Statement } | null = null;
  /**
   * The batch's transaction, made once: better-sqlite3 builds a transaction function with four
   * wrappers and their properties each time one is asked for, and a receiver records a batch
   * per request.
   */
  private recordTx: ((batch: Iterable<FailureInput>, recordedAt: number) => RecordResult) | null =
    null;

  constructor(
    private readonly db: Db,
    private readonly limits: FailureLimits = DEFAULT_FAILURE_LIMITS,
    private readonly readonly = false,
  ) {
    const t = db
      .prepare('SELECT count(*) AS n, coalesce(sum(bytes), 0) AS b FROM failures')
      .get() as { n: number; b: number };
    this.totalRecords = t.n;
    this.totalBytes = t.b;
  }

  /** `batch` may be produced lazily (a generator): each record is stored as it comes. */
  record(batch: Iterable<FailureInput>, recordedAt: number): RecordResult {
    this.writable();
    if (Array.isArray(batch) && batch.length === 0) return { added: 0, duplicates: 0, evicted: 0 };
    this.recordTx ??= this.db.transaction((b: Iterable<FailureInput>, at: number): RecordResult => {
      const res = this.insert(b, at);
      return { ...res, evicted: this.evictIfFull() };
    });
    return this.recordTx(batch, recordedAt);
  }

  /** Inserts a batch (inside a transaction); the same request again only adds its read. */
  private insert(batch: Iterable<FailureInput>, recordedAt: number): Omit<RecordResult, 'evicted'> {
    const { insert, addRead } = this.writeStatements();
    let added = 0;
    let bytes = 0;
    let n = 0;
    // one key buffer for the batch: each statement has bound it when run returns
    const key = Buffer.alloc(16);
    for (const f of batch) {
      n++;
      writeFailureKey(f, key);
      const values = rowValues(f, recordedAt, key);
      if (insert.run(values).changes > 0) {
        added++;
        bytes += values[values.length - 1] as number;
      } else addRead.run(values[4], f.fields.time ?? 0, key);
    }
    this.totalRecords += added;
    this.totalBytes += bytes;
    return { added, duplicates: n - added };
  }

  private evictIfFull(): number {
    return this.totalBytes > this.limits.maxBytes
      ? this.evictTo(Math.floor(this.limits.maxBytes * 0.9))
      : 0;
  }

  inWindow(q: FailureQuery): StoredFailure[] {
    const limit = q.limit !== undefined ? ' LIMIT @limit' : '';
    const rows = this.db
      .prepare(
        `SELECT * FROM failures WHERE ${IN_WINDOW}${proxiesClause(q)} ORDER BY time, id${limit}`,
      )
      .all({
        ...windowParams(q),
        ...(q.limit !== undefined ? { limit: q.limit } : {}),
      }) as FailureRow[];
    return rows.map(toStored);
  }

  countsInWindow(q: FailureQuery): Record<FailureRead, number> {
    const out: Record<FailureRead, number> = { view: 0, live: 0, upload: 0, otlp: 0, deletion: 0 };
    const rows = this.db
      .prepare(
        `SELECT read, count(*) AS n FROM failures WHERE ${IN_WINDOW}${proxiesClause(q)} GROUP BY read`,
      )
      .all(windowParams(q)) as { read: string; n: number }[];
    for (const r of rows) out[asRead(r.read)] += r.n;
    return out;
  }

  proxiesInWindow(q: FailureWindow): string[] {
    return this.db
      .prepare(`SELECT DISTINCT proxy FROM failures WHERE ${IN_WINDOW}`)
      .pluck()
      .all({ from: q.fromMs, to: q.toMs }) as string[];
  }

  watermark(proxy: string): ReadWatermark | null {
    const r = this.db
      .prepare(
        'SELECT proxy, proxy_uid, read_to, read_from, read_at, read FROM failure_reads WHERE proxy = ?',
      )
      .get(proxy) as
      | {
          proxy: string;
          proxy_uid: string | null;
          read_to: number;
          read_from: number | null;
          read_at: number;
          read: string;
        }
      | undefined;
    return r
      ? {
          proxy: r.proxy,
          proxyUid: r.proxy_uid,
          readTo: r.read_to,
          readFrom: r.read_from,
          readAt: r.read_at,
          read: asRead(r.read),
        }
      : null;
  }

  markRead(w: ReadWatermark): void {
    this.writable();
    this.db
      .prepare(
        `INSERT INTO failure_reads (proxy, proxy_uid, read_to, read_from, read_at, read)
         VALUES (@proxy, @proxyUid, @readTo, @readFrom, @readAt, @read)
         ON CONFLICT (proxy) DO UPDATE SET proxy_uid = coalesce(excluded.proxy_uid, proxy_uid),
           read_from = CASE
             WHEN excluded.read_from IS NOT NULL AND excluded.read_from > read_to THEN excluded.read_from
             WHEN read_from IS NULL OR excluded.read_from IS NULL THEN NULL
             ELSE min(read_from, excluded.read_from) END,
           read_to = max(read_to, excluded.read_to), read_at = max(read_at, excluded.read_at),
           read = CASE WHEN excluded.read_to >= read_to THEN excluded.read ELSE read END`,
      )
      .run({ ...w, readFrom: w.readFrom ?? null });
  }

  prune(now: number): number {
    if (this.readonly) return 0;
    const cutoff = now - this.limits.maxAgeDays * DAY_MS;
    const n = this.db.transaction(() => {
      const old = this.db
        .prepare('SELECT count(*) AS n, coalesce(sum(bytes), 0) AS b FROM failures WHERE at < ?')
        .get(cutoff) as { n: number; b: number };
      if (old.n > 0) {
        this.db.prepare('DELETE FROM failures WHERE at < ?').run(cutoff);
        this.db.prepare('DELETE FROM failure_reads WHERE read_at < ?').run(cutoff);
        this.totalRecords -= old.n;
        this.totalBytes -= old.b;
        this.pruned += old.n;
      }
      const bySize =
        this.totalBytes > this.limits.maxBytes
          ? this.evictTo(Math.floor(this.limits.maxBytes * 0.9))
          : 0;
      return old.n + bySize;
    })();
    this.lastPruneAt = now;
    return n;
  }

  retention(): FailureRetention {
    const oldest = this.db.prepare('SELECT min(at) AS at FROM failures').get() as {
      at: number | null;
    };
    return {
      records: this.totalRecords,
      bytes: this.totalBytes,
      oldest: oldest.at,
      maxAgeDays: this.limits.maxAgeDays,
      maxBytes: this.limits.maxBytes,
      pruned: this.pruned,
      lastPruneAt: this.lastPruneAt,
    };
  }

  /** Deletes the oldest records until at most `target` bytes remain (inside a transaction). */
  private evictTo(target: number): number {
    let free = this.totalBytes - target;
    if (free <= 0) return 0;
    let last: { at: number; id: number } | null = null;
    const it = this.db
      .prepare('SELECT id, at, bytes FROM failures ORDER BY at, id')
      .iterate() as IterableIterator<{ id: number; at: number; bytes: number }>;
    for (const r of it) {
      free -= r.bytes;
      last = { at: r.at, id: r.id };
      if (free <= 0) break;
    }
    if (!last) return 0;
    const gone = this.db
      .prepare('DELETE FROM failures WHERE at < @at OR (at = @at AND id <= @id) RETURNING bytes')
      .all(last) as { bytes: number }[];
    const bytes = gone.reduce((s, r) => s + r.bytes, 0);
    this.totalRecords -= gone.length;
    this.totalBytes -= bytes;
    this.pruned += gone.length;
    return gone.length;
  }

  /** The write statements, prepared once (a receiver records many small batches). */
  private writeStatements(): { insert: Statement; addRead: Statement } {
    this.statements ??= {
      insert: this.db.prepare(
        `INSERT OR IGNORE INTO failures (${INSERT_COLUMNS}) VALUES (${INSERT_COLUMNS.split(',')
          .map(() => '?')
          .join(', ')})`,
      ),
      addRead: this.db.prepare(
        'UPDATE failures SET reads = reads | ? WHERE coalesce(time, 0) = ? AND hash = ?',
      ),
    };
    return this.statements;
  }

  private writable(): void {
    if (this.readonly) throw new Error('the history store is open read-only');
  }
}
