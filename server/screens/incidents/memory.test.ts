import { afterEach, describe, expect, it } from 'vitest';
import { makePod, MIN, T0 } from '../../../tests/data/store/pods';
import { openHistoryStore, type HistoryStore } from '../../store/history-store';
import { planReads } from './memory';

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
