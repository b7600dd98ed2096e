import { afterEach, describe, expect, it } from 'vitest';
import { makePod, MIN, T0 } from '../../../tests/data/store/pods';
import { openHistoryStore, type HistoryStore } from '../../store/history-store';
import { workloadKey } from '../../../lib/refs/workload-ref';
import type { PodInterval } from '../../../lib/ledger/types';
import { goneUnread, planReads } from './memory';

let store: HistoryStore | null = null;
afterEach(() => {
  store?.close();
  store = null;
});

const iso = (ms: number) => new Date(ms).toISOString();
const pod = makePod({ name: 'web-1', ip: '10.9.0.1' });
const window = { fromMs: T0, toMs: T0 + 30 * MIN };
const q = { from: iso(T0), to: iso(T0 + 30 * MIN) };

function withMark(readFrom: number | null, readTo: number) {
  store = openHistoryStore(':memory:');
  store.failures.markRead({
    proxy: 'shop/web-1',
    proxyUid: 'uid-web-1',
    readFrom,
    readTo,
    readAt: readTo,
    read: 'view',
  });
  return store.failures;
}

describe('planReads', () => {
  it('reads a client never read from the window start', () => {
    store = openHistoryStore(':memory:');
    const p = planReads([pod], store.failures, q, window);
    expect(p.covered).toEqual([]);
    expect(p.reads.map((r) => [r.proxy, r.sinceTime, r.readFrom])).toEqual([
      ['shop/web-1', iso(T0), T0],
    ]);
  });

  it('answers a client whose reads cover the window from the store alone', () => {
    const p = planReads([pod], withMark(null, T0 + 31 * MIN), q, window);
    expect(p).toEqual({ reads: [], covered: ['shop/web-1'] });
  });

  it('reads only past the watermark when the reads cover the window start', () => {
    const p = planReads([pod], withMark(T0 - MIN, T0 + 20 * MIN), q, window);
    expect(p.reads.map((r) => r.sinceTime)).toEqual([iso(T0 + 20 * MIN - 5_000)]);
  });

  it('reads again from the window start when the reads began after it', () => {
    const p = planReads([pod], withMark(T0 + 10 * MIN, T0 + 31 * MIN), q, window);
    expect(p.covered).toEqual([]);
    expect(p.reads.map((r) => r.sinceTime)).toEqual([iso(T0)]);
  });

  it('does not take a namesake pod for the one that was read', () => {
    const namesake = makePod({ name: 'web-1', uid: 'uid-other', ip: '10.9.0.9' });
    const p = planReads([namesake], withMark(null, T0 + 31 * MIN), q, window);
    expect(p.reads).toHaveLength(1);
  });
});

function interval(name: string, owner: string, from: number, goneAt: number | null): PodInterval {
  return {
    ip: '10.9.0.1',
    namespace: 'shop',
    name,
    uid: `uid-${name}`,
    owner: { kind: 'ReplicaSet', name: owner },
    node: null,
    from,
    fromSource: 'event',
    deletionStartedAt: goneAt === null ? null : goneAt - 30_000,
    graceEndsAt: null,
    goneAt,
    goneUncertain: false,
    lastSeenAt: null,
  };
}

describe('goneUnread', () => {
  it("lists the client workloads' pods of the window that went before any read of their logs", () => {
    store = openHistoryStore(':memory:');
    const f = store.failures;
    f.markRead({
      proxy: 'shop/web-7d9f-read',
      proxyUid: null,
      readTo: T0,
      readAt: T0,
      read: 'deletion',
    });
    const intervals = [
      interval('web-7d9f-read', 'web-7d9f8c6b5', T0 - 60 * MIN, T0 + MIN), // read before it went
      interval('web-7d9f-lost', 'web-7d9f8c6b5', T0 - 60 * MIN, T0 + 2 * MIN), // never read
      interval('web-7d9f-live', 'web-7d9f8c6b5', T0 - 60 * MIN, null), // still there
      interval('web-7d9f-old', 'web-7d9f8c6b5', T0 - 90 * MIN, T0 - 70 * MIN), // gone before the window
      interval('payments-5d9f-x', 'payments-5d9f8c6b5', T0 - 60 * MIN, T0 + MIN), // not a client
    ];
    const clients = new Set([workloadKey({ namespace: 'shop', kind: 'Deployment', name: 'web' })]);
    expect(goneUnread(intervals, clients, f, window)).toEqual(['shop/web-7d9f-lost']);
    expect(goneUnread(intervals, new Set(), f, window)).toEqual([]);
  });
});
