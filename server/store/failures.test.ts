import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createLineParser } from '../../lib/accesslog/parser';
import { IpLedger } from '../../lib/ledger/ledger';
import { failureOf } from '../../lib/incidents/failure-record';
import type { FailureInput, FailureSource } from '../../lib/incidents/failure-store';
import { logLine } from '../../tests/data/incidents/logs';
import { MIN, T0 } from '../../tests/data/ledger/pods';
import { openHistoryStore, type HistoryStore } from './history-store';
import { DEFAULT_FAILURE_LIMITS, SqliteFailureStore } from './failures';
import { failureKey, failureKeyOfColumns, writeFailureKey } from './failure-rows';
import { migrate } from './schema';

const src: FailureSource = { read: 'view', proxy: 'shop/checkout-1', proxyUid: 'uid-c1' };

function failure(at: number, upstream = '10.8.0.5:8080', source = src): FailureInput {
  const line = logLine(at, 503, 'UC', upstream);
  const r = createLineParser().push(line);
  if (r.kind !== 'record') throw new Error('not a record');
  return failureOf(line, r.record, source, new IpLedger());
}

let store: HistoryStore | null = null;
afterEach(() => {
  store?.close();
  store = null;
});

describe('SqliteFailureStore', () => {
  it('records a batch, and the same line read twice from the same proxy is one record', () => {
    store = openHistoryStore(':memory:');
    const batch = [failure(T0), failure(T0 + MIN), failure(T0 + 2 * MIN)];
    expect(store.failures.record(batch, T0 + 3 * MIN)).toEqual({
      added: 3,
      duplicates: 0,
      evicted: 0,
    });
    const again = batch.map((f) => ({ ...f, source: { ...f.source, read: 'live' as const } }));
    expect(store.failures.record(again, T0 + 4 * MIN)).toEqual({
      added: 0,
      duplicates: 3,
      evicted: 0,
    });
    // another proxy's identical line is its own record
    const other = failure(T0, '10.8.0.5:8080', { ...src, proxy: 'shop/checkout-2' });
    expect(store.failures.record([other], T0 + 4 * MIN).added).toBe(1);
    const rows = store.failures.inWindow({ fromMs: T0, toMs: T0 + 10 * MIN });
    expect(rows).toHaveLength(4);
    expect(rows[0]?.source.read).toBe('view');
    expect(rows[0]?.recordedAt).toBe(T0 + 3 * MIN);
    expect(rows[0]?.raw).toBe(batch[0]?.raw);
    expect(rows[0]?.fields).toEqual(batch[0]?.fields);
    expect(rows[0]?.attribution).toEqual(batch[0]?.attribution);
  });

  it('keeps a record with no upstream address as unattributable', () => {
    store = openHistoryStore(':memory:');
    store.failures.record([failure(T0, '-')], T0);
    const [row] = store.failures.inWindow({ fromMs: T0, toMs: T0 });
    expect(row?.attribution.state).toBe('unattributable');
    expect(row?.fields.upstreamHost).toBeNull();
  });

  it('answers a window by proxy and counts it by read', () => {
    store = openHistoryStore(':memory:');
    store.failures.record([failure(T0), failure(T0 + 30 * MIN)], T0 + 31 * MIN);
    store.failures.record(
      [
        failure(T0 + 5 * MIN, '10.8.0.6:8080', {
          read: 'otlp',
          proxy: 'shop/web-1',
          proxyUid: null,
        }),
      ],
      T0 + 31 * MIN,
    );
    const q = { fromMs: T0, toMs: T0 + 10 * MIN };
    expect(store.failures.inWindow(q).map((f) => f.source.proxy)).toEqual([
      'shop/checkout-1',
      'shop/web-1',
    ]);
    expect(store.failures.inWindow({ ...q, proxies: ['shop/web-1'] })).toHaveLength(1);
    expect(store.failures.countsInWindow(q)).toEqual({
      view: 1,
      live: 0,
      upload: 0,
      otlp: 1,
      deletion: 0,
    });
  });

  it('moves a read watermark forward only, its coverage back to the earliest read without a gap', () => {
    store = openHistoryStore(':memory:');
    const f = store.failures;
    const mark = (readFrom: number | null, readTo: number) =>
      f.markRead({
        proxy: 'shop/c-1',
        proxyUid: 'u',
        readFrom,
        readTo,
        readAt: readTo,
        read: 'view',
      });
    expect(f.watermark('shop/c-1')).toBeNull();
    mark(T0 + 10 * MIN, T0 + 20 * MIN);
    mark(T0 + 15 * MIN, T0 + 18 * MIN); // older end: the watermark does not go back
    expect(f.watermark('shop/c-1')).toMatchObject({
      readFrom: T0 + 10 * MIN,
      readTo: T0 + 20 * MIN,
    });
    mark(T0, T0 + 25 * MIN); // an earlier start, overlapping: coverage reaches back
    expect(f.watermark('shop/c-1')).toMatchObject({ readFrom: T0, readTo: T0 + 25 * MIN });
    mark(T0 + 40 * MIN, T0 + 50 * MIN); // after a gap: covered only from the new read
    expect(f.watermark('shop/c-1')).toMatchObject({
      readFrom: T0 + 40 * MIN,
      readTo: T0 + 50 * MIN,
    });
    mark(null, T0 + 50 * MIN); // the whole log
    expect(f.watermark('shop/c-1')).toEqual({
      proxy: 'shop/c-1',
      proxyUid: 'u',
      readFrom: null,
      readTo: T0 + 50 * MIN,
      readAt: T0 + 50 * MIN,
      read: 'view',
    });
  });

  it('prunes by age, oldest first, and says what it keeps since when', () => {
    store = openHistoryStore(':memory:', { failureLimits: { maxAgeDays: 1, maxBytes: 1e9 } });
    const day = 86_400_000;
    store.failures.record([failure(T0), failure(T0 + day), failure(T0 + 2 * day)], T0 + 2 * day);
    expect(store.failures.prune(T0 + 2 * day + MIN)).toBe(2);
    const r = store.failures.retention();
    expect(r.records).toBe(1);
    expect(r.oldest).toBe(T0 + 2 * day);
    expect(r.pruned).toBe(2);
    expect(r.lastPruneAt).toBe(T0 + 2 * day + MIN);
  });

  it('a store at its size limit keeps recording: the oldest records go first', () => {
    const one = failure(T0).raw.length + 240;
    store = openHistoryStore(':memory:', { failureLimits: { maxAgeDays: 30, maxBytes: one * 10 } });
    for (let i = 0; i < 50; i++) {
      const res = store.failures.record([failure(T0 + i * MIN)], T0 + i * MIN);
      expect(res.added).toBe(1);
    }
    const r = store.failures.retention();
    expect(r.bytes).toBeLessThanOrEqual(one * 10);
    expect(r.records).toBeGreaterThan(0);
    expect(r.pruned).toBe(50 - r.records);
    const kept = store.failures.inWindow({ fromMs: T0, toMs: T0 + 60 * MIN });
    expect(kept).toHaveLength(r.records);
    // the newest is kept, the oldest went
    expect(kept.at(-1)?.fields.time).toBe(T0 + 49 * MIN);
    expect(kept[0]?.fields.time).toBe(T0 + (50 - r.records) * MIN);
  });

  it('migrating a store of line-keyed records re-keys them by request: a request kept from its log and from the receiver becomes one', () => {
    const raw = new Database(':memory:');
    migrate(raw, 6);
    const insert = raw.prepare(
      `INSERT INTO failures (proxy, hash, read, reads, recorded_at, at, time, code, flags, method, authority, path, duration_ms, upstream_host, request_id, state, reason, raw, bytes)
       VALUES (@proxy, @hash, @read, @reads, 0, @time, @time, 503, 'UC', 'POST', 'payments:8080', '/pay', 3, '10.8.0.5:8080', 'rid', 'unknown', '', @raw, 100)`,
    );
    const line = failure(T0).raw;
    insert.run({
      proxy: 'shop/checkout-1',
      hash: Buffer.from('a'),
      read: 'view',
      reads: 1,
      time: T0,
      raw: line,
    });
    // the same request as a Collector's fields (another text) from the receiver
    insert.run({
      proxy: 'shop/checkout-1',
      hash: Buffer.from('b'),
      read: 'otlp',
      reads: 8,
      time: T0,
      raw: '{"response_code":503}',
    });
    insert.run({
      proxy: 'shop/checkout-1',
      hash: Buffer.from('c'),
      read: 'view',
      reads: 1,
      time: T0 + MIN,
      raw: line,
    });
    expect(migrate(raw)).toBeGreaterThanOrEqual(7);
    expect(raw.prepare('SELECT read, reads, time FROM failures ORDER BY id').all()).toEqual([
      { read: 'view', reads: 9, time: T0 },
      { read: 'view', reads: 1, time: T0 + MIN },
    ]);
    // and a new read of the first request adds nothing
    const f = new SqliteFailureStore(raw);
    expect(f.record([failure(T0)], T0 + 2 * MIN)).toMatchObject({ added: 0, duplicates: 1 });
    expect(f.retention().records).toBe(2);
    raw.close();
  });

  it('keys a request into one shared buffer as migration 7 keys its columns: the first 16 bytes of the SHA-256 of its identity', () => {
    const shared = Buffer.alloc(16);
    for (const f of [failure(T0), failure(T0 + MIN, '-'), failure(T0 + 2 * MIN, '10.8.0.9:8080')]) {
      const x = f.fields;
      const fromColumns = failureKeyOfColumns(
        f.source.proxy,
        x.time,
        x.method,
        x.authority,
        x.path,
        x.code,
        x.flags.join(','),
        x.durationMs,
        x.upstreamHost,
        x.requestId,
        f.raw,
      );
      expect(writeFailureKey(f, shared)).toBe(shared);
      expect(shared.equals(fromColumns)).toBe(true);
      expect(failureKey(f).equals(fromColumns)).toBe(true);
    }
    expect(failureKey(failure(T0)).equals(failureKey(failure(T0 + 1)))).toBe(false);
  });

  it('refuses to record in a read-only store', () => {
    store = openHistoryStore(':memory:');
    const ro = new SqliteFailureStore(store.db, DEFAULT_FAILURE_LIMITS, true);
    expect(() => ro.record([failure(T0)], T0)).toThrow(/read-only/);
    expect(ro.prune(T0)).toBe(0);
  });
});
