import { describe, it, expect, afterAll } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS, SCHEMA_VERSION, StoreVersionError, migrate, schemaVersion } from './schema';
import { integrityCheck, openDatabase } from './db';
import { openHistoryStore } from './history-store';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-schema-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const indexes = (db: Database.Database) =>
  (
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL").all() as {
      name: string;
    }[]
  )
    .map((r) => r.name)
    .sort();

describe('store schema and migrations', () => {
  it('creates every table on an empty file, in WAL mode, creating parent directories', () => {
    const file = path.join(dir, 'a', 'b', 'fresh.sqlite');
    const db = openDatabase(file);
    expect(schemaVersion(db)).toBe(MIGRATIONS.length);
    const tables = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
        name: string;
      }[]
    ).map((r) => r.name);
    expect(tables).toEqual([
      'failure_reads',
      'failures',
      'kube_events',
      'layer_events',
      'meta',
      'pod_intervals',
      'pod_snapshots',
      'pod_specs',
      'transitions',
      'view_snapshots',
      'watch_state',
    ]);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
    expect(integrityCheck(db)).toBe('ok');
    db.close();
    expect(fs.existsSync(file)).toBe(true);
  });

  it('migrates a version-1 file forward and keeps its rows', () => {
    const file = path.join(dir, 'v1.sqlite');
    const raw = new Database(file);
    expect(migrate(raw, 1)).toBe(1);
    expect(indexes(raw)).not.toContain('kube_events_object');
    raw
      .prepare(
        "INSERT INTO pod_intervals (pod_key, ip, namespace, name, \"from\", from_source) VALUES ('u1', '10.0.0.1', 'shop', 'p', 5, 'startTime')",
      )
      .run();
    raw.close();
    const store = openHistoryStore(file);
    expect(store.stats().schemaVersion).toBe(SCHEMA_VERSION);
    expect(indexes(store.db)).toContain('kube_events_object');
    expect(store.history('10.0.0.1').map((i) => [i.name, i.from, i.fromSource])).toEqual([
      ['p', 5, 'startTime'],
    ]);
    store.close();
  });

  it('reads a pod stored whole before specs were kept apart', () => {
    const file = path.join(dir, 'v2.sqlite');
    const raw = new Database(file);
    expect(migrate(raw, 2)).toBe(2);
    const pod = { metadata: { name: 'p', namespace: 'shop', uid: 'u2' }, spec: { nodeName: 'n1' } };
    raw
      .prepare(
        "INSERT INTO pod_snapshots (pod_key, uid, namespace, name, object, first_seen, last_seen) VALUES ('u2', 'u2', 'shop', 'p', ?, 1, 2)",
      )
      .run(JSON.stringify(pod));
    raw.close();
    const store = openHistoryStore(file);
    expect(store.podSnapshotByUid('u2')?.object).toEqual(pod);
    store.close();
  });

  it('applying migrations again changes nothing', () => {
    const db = new Database(':memory:');
    migrate(db);
    const before = indexes(db);
    expect(migrate(db)).toBe(SCHEMA_VERSION);
    expect(indexes(db)).toEqual(before);
    db.close();
  });

  it('refuses a file from a newer meshdx, and a read-only open of an unmigrated file', () => {
    const newer = path.join(dir, 'newer.sqlite');
    const raw = new Database(newer);
    migrate(raw);
    raw
      .prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'")
      .run(String(SCHEMA_VERSION + 1));
    raw.close();
    expect(() => openDatabase(newer)).toThrow(StoreVersionError);
    expect(() => openDatabase(newer, { readonly: true })).toThrow(/newer than this meshdx/);

    const old = path.join(dir, 'old.sqlite');
    const rawOld = new Database(old);
    migrate(rawOld, 1);
    rawOld.close();
    expect(() => openDatabase(old, { readonly: true })).toThrow(/migrate it to/);
    expect(() => openDatabase(path.join(dir, 'missing.sqlite'), { readonly: true })).toThrow();
  });
});
