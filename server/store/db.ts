import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { migrate, schemaVersion, SCHEMA_VERSION, StoreVersionError } from './schema';

export type Db = Database.Database;

export interface OpenDbOptions {
  /** Open an existing file for reading only: no migration, no writes (the CLI). */
  readonly?: boolean;
}

/**
 * Opens (creating parent directories and the file) a store database in WAL mode with
 * synchronous=NORMAL: a committed transaction survives a crash of the process; only a power
 * loss can take back the last commits. ':memory:' is accepted (tests).
 */
export function openDatabase(file: string, opts: OpenDbOptions = {}): Db {
  if (opts.readonly) {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    const v = schemaVersion(db);
    if (v !== SCHEMA_VERSION) {
      db.close();
      throw new StoreVersionError(
        v > SCHEMA_VERSION
          ? `${file}: store schema version ${v} is newer than this meshdx understands (${SCHEMA_VERSION})`
          : `${file}: store schema version ${v}; open it once with a writing meshdx to migrate it to ${SCHEMA_VERSION}`,
      );
    }
    return db;
  }
  if (file !== ':memory:' && file !== '')
    fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    db.pragma('foreign_keys = ON');
    // checkpoint every ~40 MB of WAL rather than 4 MB: during a rollout storm the same index
    // pages are rewritten by every batch, and each checkpoint copies them back once
    db.pragma('wal_autocheckpoint = 10000');
    migrate(db);
  } catch (e) {
    db.close();
    throw e;
  }
  return db;
}

/** `PRAGMA integrity_check`: 'ok' or the problems SQLite lists. */
export function integrityCheck(db: Db): string {
  const rows = db.pragma('integrity_check') as { integrity_check: string }[];
  return rows.map((r) => r.integrity_check).join('\n');
}
