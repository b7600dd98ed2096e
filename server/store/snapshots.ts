import { randomBytes } from 'node:crypto';
import type { Db } from './db';
import { DAY_MS } from './retention';
import { SNAPSHOT_ID, SNAPSHOT_VIEWS, type SnapshotView } from '../../lib/api/snapshots';

export interface SnapshotLimits {
  /** Snapshots frozen longer ago than this many days go. */
  maxAgeDays: number;
  /** Above this many bytes of frozen JSON, the oldest go until the rest fit. */
  maxBytes: number;
}

/** Small-volume defaults (docs/operating.md settings table). */
export const DEFAULT_SNAPSHOT_LIMITS: SnapshotLimits = {
  maxAgeDays: 90,
  maxBytes: 64 * 1024 * 1024,
};

/** What a snapshot is, without its JSON (the list). */
export interface SnapshotMeta {
  id: string;
  view: SnapshotView;
  /** The view's query as it was answered (`?namespace=...&from=...`, '' for none). */
  query: string;
  /** The page that was shared (path and query, relative to meshdx). */
  url: string;
  /** The signed-in user who made it; null when meshdx runs without identities. */
  madeBy: string | null;
  /** MESHDX_AUTH when it was made. */
  authMode: string;
  frozenAt: number;
  bytes: number;
}

export interface Snapshot extends SnapshotMeta {
  /** The view's JSON exactly as the API served it. */
  body: string;
}

export interface NewSnapshot {
  view: SnapshotView;
  query: string;
  url: string;
  madeBy: string | null;
  authMode: string;
  frozenAt: number;
  body: string;
}

/** What the store holds, and what retention took (GET /api/health). */
export interface SnapshotStats {
  count: number;
  bytes: number;
  /** When the oldest kept one was frozen (RFC 3339), null when none. */
  oldest: string | null;
  limits: SnapshotLimits;
  /** Removed by age or size since this process started using the store. */
  pruned: number;
}

interface Row {
  id: string;
  view: string;
  query: string;
  url: string;
  made_by: string | null;
  auth_mode: string;
  frozen_at: number;
  bytes: number;
  body?: string;
}

const META = 'id, view, query, url, made_by, auth_mode, frozen_at, bytes';

const asView = (v: string): SnapshotView =>
  (SNAPSHOT_VIEWS as readonly string[]).includes(v) ? (v as SnapshotView) : 'incidents';

function toMeta(r: Row): SnapshotMeta {
  return {
    id: r.id,
    view: asView(r.view),
    query: r.query,
    url: r.url,
    madeBy: r.made_by,
    authMode: r.auth_mode,
    frozenAt: r.frozen_at,
    bytes: r.bytes,
  };
}

/** A new unguessable id (128 random bits). */
export function newSnapshotId(): string {
  return randomBytes(16).toString('base64url');
}

/**
 * Frozen views in the history store (table view_snapshots): written whole in one statement,
 * read back byte for byte, kept by age and total size, the oldest going first. Retention is
 * applied on every write and every listing, so a store at its limit keeps taking new ones.
 */
export class SqliteSnapshotStore {
  private pruned = 0;

  constructor(
    private readonly db: Db,
    readonly limits: SnapshotLimits = DEFAULT_SNAPSHOT_LIMITS,
  ) {}

  save(s: NewSnapshot): SnapshotMeta {
    const bytes = Buffer.byteLength(s.body, 'utf8');
    if (bytes > this.limits.maxBytes)
      throw new SnapshotTooLarge(
        `this view's JSON is ${bytes} bytes, more than the snapshot store holds in all (${this.limits.maxBytes} bytes, MESHDX_SNAPSHOT_MAX_MB)`,
      );
    const id = newSnapshotId();
    this.db
      .prepare(
        `INSERT INTO view_snapshots (${META}, body) VALUES (@id, @view, @query, @url, @made_by, @auth_mode, @frozen_at, @bytes, @body)`,
      )
      .run({
        id,
        view: s.view,
        query: s.query,
        url: s.url,
        made_by: s.madeBy,
        auth_mode: s.authMode,
        frozen_at: s.frozenAt,
        bytes,
        body: s.body,
      });
    this.prune(s.frozenAt, id);
    const { body: _body, ...meta } = s;
    return { id, ...meta, bytes };
  }

  get(id: string): Snapshot | null {
    if (!SNAPSHOT_ID.test(id)) return null;
    const r = this.db.prepare(`SELECT ${META}, body FROM view_snapshots WHERE id = ?`).get(id) as
      Row | undefined;
    return r ? { ...toMeta(r), body: r.body ?? '' } : null;
  }

  /** Newest first. */
  list(now: number): SnapshotMeta[] {
    this.prune(now);
    return (
      this.db
        .prepare(`SELECT ${META} FROM view_snapshots ORDER BY frozen_at DESC, id`)
        .all() as Row[]
    ).map(toMeta);
  }

  delete(id: string): boolean {
    return this.db.prepare('DELETE FROM view_snapshots WHERE id = ?').run(id).changes > 0;
  }

  /**
   * Deletes what is older than maxAgeDays, then the oldest until the total fits maxBytes
   * (`keep`, the one just written, is never the one removed for size). Returns how many went.
   */
  prune(now: number, keep?: string): number {
    return this.db.transaction(() => {
      let n = this.db
        .prepare('DELETE FROM view_snapshots WHERE frozen_at < ?')
        .run(now - this.limits.maxAgeDays * DAY_MS).changes;
      let total = this.totalBytes();
      if (total > this.limits.maxBytes) {
        const rows = this.db
          .prepare('SELECT id, bytes FROM view_snapshots ORDER BY frozen_at, id')
          .all() as { id: string; bytes: number }[];
        const del = this.db.prepare('DELETE FROM view_snapshots WHERE id = ?');
        for (const r of rows) {
          if (total <= this.limits.maxBytes) break;
          if (r.id === keep) continue;
          del.run(r.id);
          total -= r.bytes;
          n++;
        }
      }
      this.pruned += n;
      return n;
    })();
  }

  stats(now: number): SnapshotStats {
    this.prune(now);
    const r = this.db
      .prepare(
        'SELECT count(*) AS n, coalesce(sum(bytes), 0) AS b, min(frozen_at) AS oldest FROM view_snapshots',
      )
      .get() as { n: number; b: number; oldest: number | null };
    return {
      count: r.n,
      bytes: r.b,
      oldest: r.oldest === null ? null : new Date(r.oldest).toISOString(),
      limits: this.limits,
      pruned: this.pruned,
    };
  }

  private totalBytes(): number {
    return (
      this.db.prepare('SELECT coalesce(sum(bytes), 0) AS b FROM view_snapshots').get() as {
        b: number;
      }
    ).b;
  }
}

/** A view too big to keep as a snapshot at all (413). */
export class SnapshotTooLarge extends Error {
  override name = 'SnapshotTooLarge';
}
