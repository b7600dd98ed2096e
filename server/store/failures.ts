import { createHash } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import type { Db } from './db';
import {
  ATTRIBUTED_STATES,
  FAILURE_READS,
  type AttributedState,
  type FailureInput,
  type FailureQuery,
  type FailureRead,
  type FailureRetention,
  type FailureStore,
  type ReadWatermark,
  type RecordResult,
  type StoredFailure,
} from '../../lib/incidents/failure-store';
import { DAY_MS } from './retention';

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

/** What a row costs besides its raw line (fields, keys, index entries): an estimate. */
const ROW_OVERHEAD_BYTES = 240;

interface FailureRow {
  id: number;
  proxy: string;
  proxy_uid: string | null;
  read: string;
  recorded_at: number;
  time: number | null;
  code: number | null;
  flags: string;
  method: string | null;
  authority: string | null;
  path: string | null;
  duration_ms: number | null;
  upstream_host: string | null;
  upstream_cluster: string | null;
  downstream_remote: string | null;
  request_id: string | null;
  details: string | null;
  upstream_ip: string | null;
  pod_namespace: string | null;
  pod_name: string | null;
  pod_uid: string | null;
  owner_kind: string | null;
  owner_name: string | null;
  state: string;
  deletion_started_at: number | null;
  gone_at: number | null;
  after_termination_ms: number | null;
  reason: string;
  raw: string;
}

const READ_BIT: Record<FailureRead, number> = {
  view: 1,
  live: 2,
  upload: 4,
  otlp: 8,
  deletion: 16,
};

function asRead(s: string): FailureRead {
  return (FAILURE_READS as readonly string[]).includes(s) ? (s as FailureRead) : 'view';
}
function asState(s: string): AttributedState {
  return (ATTRIBUTED_STATES as readonly string[]).includes(s) ? (s as AttributedState) : 'unknown';
}

/** The content key of a line: the same line from the same proxy is one record. */
export function lineHash(raw: string): Buffer {
  return createHash('sha256').update(raw).digest().subarray(0, 16);
}

function toStored(r: FailureRow): StoredFailure {
  return {
    id: r.id,
    recordedAt: r.recorded_at,
    raw: r.raw,
    source: { read: asRead(r.read), proxy: r.proxy, proxyUid: r.proxy_uid },
    fields: {
      time: r.time,
      code: r.code,
      flags: r.flags === '' ? [] : r.flags.split(','),
      method: r.method,
      authority: r.authority,
      path: r.path,
      durationMs: r.duration_ms,
      upstreamHost: r.upstream_host,
      upstreamCluster: r.upstream_cluster,
      downstreamRemote: r.downstream_remote,
      requestId: r.request_id,
      details: r.details,
    },
    attribution: {
      upstreamIp: r.upstream_ip,
      pod:
        r.pod_namespace !== null && r.pod_name !== null
          ? { namespace: r.pod_namespace, name: r.pod_name, uid: r.pod_uid }
          : null,
      owner:
        r.owner_kind !== null && r.owner_name !== null
          ? { kind: r.owner_kind, name: r.owner_name }
          : null,
      state: asState(r.state),
      deletionStartedAt: r.deletion_started_at,
      goneAt: r.gone_at,
      afterTerminationMs: r.after_termination_ms,
      reason: r.reason,
    },
  };
}

const proxiesClause = (q: FailureQuery) =>
  q.proxies ? ' AND proxy IN (SELECT value FROM json_each(@proxies))' : '';
const windowParams = (q: FailureQuery) => ({
  from: q.fromMs,
  to: q.toMs,
  ...(q.proxies ? { proxies: JSON.stringify(q.proxies) } : {}),
});

/**
 * The failing requests of a history store file (table `failures`, migration 3), with their read
 * watermarks (`failure_reads`). Writes commit at once, one transaction per batch; the age and
 * size limits are applied by prune() and, for size, after every batch that crosses the limit.
 */
export class SqliteFailureStore implements FailureStore {
  private totalBytes: number;
  private totalRecords: number;
  private pruned = 0;
  private lastPruneAt: number | null = null;
  private statements: { plain: Statement; addRead: Statement } | null = null;

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

  record(batch: readonly FailureInput[], recordedAt: number): RecordResult {
    this.writable();
    if (batch.length === 0) return { added: 0, duplicates: 0, evicted: 0 };
    const { plain, addRead } = this.writeStatements();
    const result = this.db.transaction((): RecordResult => {
      let added = 0;
      let bytes = 0;
      for (const f of batch) {
        const row = this.row(f, recordedAt);
        if (plain.run(row).changes > 0) {
          added++;
          bytes += row.bytes;
        } else addRead.run(row);
      }
      this.totalRecords += added;
      this.totalBytes += bytes;
      const evicted =
        this.totalBytes > this.limits.maxBytes
          ? this.evictTo(Math.floor(this.limits.maxBytes * 0.9))
          : 0;
      return { added, duplicates: batch.length - added, evicted };
    })();
    return result;
  }

  inWindow(q: FailureQuery): StoredFailure[] {
    const limit = q.limit !== undefined ? ' LIMIT @limit' : '';
    const rows = this.db
      .prepare(
        `SELECT * FROM failures WHERE time BETWEEN @from AND @to${proxiesClause(q)} ORDER BY time, id${limit}`,
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
        `SELECT read, count(*) AS n FROM failures WHERE time BETWEEN @from AND @to${proxiesClause(q)} GROUP BY read`,
      )
      .all(windowParams(q)) as { read: string; n: number }[];
    for (const r of rows) out[asRead(r.read)] += r.n;
    return out;
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

  private row(f: FailureInput, recordedAt: number) {
    const a = f.attribution;
    const x = f.fields;
    return {
      proxy: f.source.proxy,
      hash: lineHash(f.raw),
      proxy_uid: f.source.proxyUid,
      read: f.source.read,
      reads: READ_BIT[f.source.read],
      recorded_at: recordedAt,
      at: x.time ?? recordedAt,
      time: x.time,
      code: x.code,
      flags: x.flags.join(','),
      method: x.method,
      authority: x.authority,
      path: x.path,
      duration_ms: x.durationMs,
      upstream_host: x.upstreamHost,
      upstream_cluster: x.upstreamCluster,
      downstream_remote: x.downstreamRemote,
      request_id: x.requestId,
      details: x.details,
      upstream_ip: a.upstreamIp,
      pod_namespace: a.pod?.namespace ?? null,
      pod_name: a.pod?.name ?? null,
      pod_uid: a.pod?.uid ?? null,
      owner_kind: a.owner?.kind ?? null,
      owner_name: a.owner?.name ?? null,
      state: a.state,
      deletion_started_at: a.deletionStartedAt,
      gone_at: a.goneAt,
      after_termination_ms: a.afterTerminationMs,
      reason: a.reason,
      raw: f.raw,
      bytes: Buffer.byteLength(f.raw) + ROW_OVERHEAD_BYTES,
    };
  }

  /** The write statements, prepared once (a receiver records many small batches). */
  private writeStatements(): { plain: Statement; addRead: Statement } {
    this.statements ??= {
      plain: this.db.prepare(
        'INSERT OR IGNORE INTO failures (proxy, hash, proxy_uid, read, reads, recorded_at, at, time, code, flags, method, authority, path, duration_ms, upstream_host, upstream_cluster, downstream_remote, request_id, details, upstream_ip, pod_namespace, pod_name, pod_uid, owner_kind, owner_name, state, deletion_started_at, gone_at, after_termination_ms, reason, raw, bytes) VALUES (@proxy, @hash, @proxy_uid, @read, @reads, @recorded_at, @at, @time, @code, @flags, @method, @authority, @path, @duration_ms, @upstream_host, @upstream_cluster, @downstream_remote, @request_id, @details, @upstream_ip, @pod_namespace, @pod_name, @pod_uid, @owner_kind, @owner_name, @state, @deletion_started_at, @gone_at, @after_termination_ms, @reason, @raw, @bytes)',
      ),
      addRead: this.db.prepare(
        'UPDATE failures SET reads = reads | @reads WHERE proxy = @proxy AND hash = @hash',
      ),
    };
    return this.statements;
  }

  private writable(): void {
    if (this.readonly) throw new Error('the history store is open read-only');
  }
}
