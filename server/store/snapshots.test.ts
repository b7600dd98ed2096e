import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from './db';
import { SNAPSHOT_ID } from '../../lib/api/snapshots';
import { SnapshotTooLarge, SqliteSnapshotStore, type NewSnapshot } from './snapshots';

const DAY = 86_400_000;
const T0 = Date.parse('2026-11-01T12:00:00Z');

let db: Db | null = null;
afterEach(() => db?.close());

function store(maxAgeDays = 30, maxBytes = 10_000) {
  db = openDatabase(':memory:');
  return new SqliteSnapshotStore(db, { maxAgeDays, maxBytes });
}

const snap = (frozenAt: number, body = '{"requests":[]}'): NewSnapshot => ({
  view: 'incidents',
  query: '?from=2026-11-01T11:00:00.000Z&to=2026-11-01T12:00:00.000Z',
  url: '/incidents?from=2026-11-01T11:00:00.000Z&to=2026-11-01T12:00:00.000Z',
  madeBy: 'alice',
  authMode: 'token',
  frozenAt,
  body,
});

describe('frozen views in the store', () => {
  it('keeps the JSON byte for byte under an unguessable id', () => {
    const s = store();
    const body = '{"window":{"from":"2026-11-01T11:00:00.000Z"},"note":"é ✓ \\u2028"}';
    const a = s.save(snap(T0, body));
    const b = s.save(snap(T0, body));
    expect(a.id).toMatch(SNAPSHOT_ID);
    expect(a.id).not.toBe(b.id);
    expect(a.bytes).toBe(Buffer.byteLength(body));
    const got = s.get(a.id);
    expect(got?.body).toBe(body);
    expect(got).toMatchObject({ view: 'incidents', madeBy: 'alice', frozenAt: T0 });
    expect(s.get('not-an-id')).toBeNull();
    expect(s.get('A'.repeat(22))).toBeNull();
  });

  it('lists newest first and deletes one', () => {
    const s = store();
    const old = s.save(snap(T0 - DAY));
    const recent = s.save(snap(T0));
    expect(s.list(T0).map((m) => m.id)).toEqual([recent.id, old.id]);
    expect(s.delete(old.id)).toBe(true);
    expect(s.delete(old.id)).toBe(false);
    expect(s.list(T0).map((m) => m.id)).toEqual([recent.id]);
  });

  it('drops what is older than the age limit, oldest first', () => {
    const s = store(7);
    const gone = s.save(snap(T0 - 8 * DAY));
    const kept = s.save(snap(T0 - 6 * DAY));
    expect(s.list(T0).map((m) => m.id)).toEqual([kept.id]);
    expect(s.get(gone.id)).toBeNull();
    expect(s.stats(T0)).toMatchObject({
      count: 1,
      oldest: new Date(T0 - 6 * DAY).toISOString(),
      pruned: 1,
    });
  });

  it('at its size limit drops the oldest and keeps taking new ones', () => {
    const s = store(30, 250);
    const body = `{"x":"${'a'.repeat(90)}"}`; // 98 bytes
    const first = s.save(snap(T0 - 3000, body));
    const second = s.save(snap(T0 - 2000, body));
    const third = s.save(snap(T0 - 1000, body));
    expect(s.get(first.id)).toBeNull();
    expect(s.list(T0).map((m) => m.id)).toEqual([third.id, second.id]);
    expect(s.stats(T0).bytes).toBe(196);
  });

  it('refuses a view larger than the whole store, naming the setting', () => {
    const s = store(30, 50);
    expect(() => s.save(snap(T0, `{"x":"${'a'.repeat(60)}"}`))).toThrow(SnapshotTooLarge);
    expect(() => s.save(snap(T0, `{"x":"${'a'.repeat(60)}"}`))).toThrow(/MESHDX_SNAPSHOT_MAX_MB/);
    expect(s.stats(T0)).toMatchObject({ count: 0, oldest: null });
  });
});
