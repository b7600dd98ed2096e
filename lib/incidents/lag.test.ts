import { describe, expect, it } from 'vitest';
import { createLineParser } from '../accesslog/parser';
import { IpLedger } from '../ledger/ledger';
import { heldThenDeleted, MIN, T0 } from '../../tests/data/ledger/pods';
import { logLine } from '../../tests/data/incidents/logs';
import { failureOf } from './failure-record';
import type { FailureRead, StoredFailure } from './failure-store';
import { clientLags, lagSeries } from './lag';

const IP = '10.8.0.5';
/** payments-a holds IP; its deletion starts at T0+10min; it is gone 20 s later. */
const ledger = new IpLedger().addAll([...heldThenDeleted('payments-a', IP, T0 + 10 * MIN, 20_000)]);
const deletionStart = ledger.at(IP, T0 + 11 * MIN).holder?.deletionStartedAt as number;

let id = 0;
function stored(at: number, client: string, read: FailureRead = 'view'): StoredFailure {
  const line = logLine(at, 503, 'UF', `${IP}:8080`);
  const r = createLineParser().push(line);
  if (r.kind !== 'record') throw new Error('not a record');
  return {
    ...failureOf(line, r.record, { read, proxy: client, proxyUid: null }, ledger),
    id: ++id,
    recordedAt: at,
  };
}

describe('clientLags', () => {
  it('per client: from the deletion start to the last request it still sent to the IP', () => {
    expect(deletionStart).toBeGreaterThan(T0);
    const lags = clientLags([
      stored(T0 + 5 * MIN, 'shop/web-1'), // before the deletion: not lag
      stored(deletionStart + 2_000, 'shop/web-1'),
      stored(deletionStart + 9_000, 'shop/web-1'),
      stored(deletionStart + 30_000, 'shop/web-2'),
      stored(deletionStart + 60_000, 'upload', 'upload'), // not a proxy of the cluster
    ]);
    expect(lags.map((l) => [l.client, l.lagMs, l.requests])).toEqual([
      ['shop/web-2', 30_000, 1],
      ['shop/web-1', 9_000, 2],
    ]);
    expect(lags[1]).toMatchObject({
      pod: 'shop/payments-a',
      ip: IP,
      deletionStartedAt: deletionStart,
    });
  });

  it('takes the deletion start the history knows now over the one recorded', () => {
    const f = stored(deletionStart + 9_000, 'shop/web-1');
    const lags = clientLags([f], () => deletionStart - 1_000);
    expect(lags[0]?.lagMs).toBe(10_000);
  });

  it('has no row for a request without an attributed pod', () => {
    const line = logLine(T0, 503, 'UH', '-');
    const r = createLineParser().push(line);
    if (r.kind !== 'record') throw new Error('not a record');
    const f = {
      ...failureOf(line, r.record, { read: 'view', proxy: 'a/b', proxyUid: null }, ledger),
      id: 1,
      recordedAt: T0,
    };
    expect(clientLags([f])).toEqual([]);
  });
});

describe('lagSeries', () => {
  it('buckets the lags by deletion start: longest and median per bucket', () => {
    const base = { pod: 'p', podUid: null, ip: null, lastRequestAt: 0, requests: 1 };
    const series = lagSeries(
      [
        { ...base, client: 'a', deletionStartedAt: T0 + 1_000, lagMs: 5_000 },
        { ...base, client: 'b', deletionStartedAt: T0 + 2_000, lagMs: 1_000 },
        { ...base, client: 'c', deletionStartedAt: T0 + 3_000, lagMs: 3_000 },
        { ...base, client: 'd', deletionStartedAt: T0 + 2 * MIN, lagMs: 7_000 },
      ],
      T0,
      MIN,
    );
    expect(series).toEqual([
      { start: T0, maxLagMs: 5_000, medianLagMs: 3_000, pairs: 3 },
      { start: T0 + 2 * MIN, maxLagMs: 7_000, medianLagMs: 7_000, pairs: 1 },
    ]);
    expect(() => lagSeries([], T0, 0)).toThrow(/bucketMs/);
  });
});
