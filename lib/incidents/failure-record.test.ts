import { describe, expect, it } from 'vitest';
import { readFixture } from '../../test-support/fixtures';
import { createLineParser } from '../accesslog/parser';
import type { AccessLogRecord } from '../accesslog/types';
import { IpLedger } from '../ledger/ledger';
import { heldThenDeleted, MIN, T0 } from '../../tests/data/ledger/pods';
import { logLine } from '../../tests/data/incidents/logs';
import { failureOf } from './failure-record';
import type { FailureSource } from './failure-store';

const IP = '10.8.0.5';
const src: FailureSource = { read: 'view', proxy: 'shop/checkout-1', proxyUid: 'uid-c1' };

function parse(line: string): AccessLogRecord {
  const r = createLineParser().push(line);
  if (r.kind !== 'record') throw new Error(`not a record: ${line}`);
  return r.record;
}

/** payments-a holds IP from T0, its deletion starts at T0+10min and it is gone 20 s later. */
function ledger(): IpLedger {
  return new IpLedger().addAll([...heldThenDeleted('payments-a', IP, T0 + 10 * MIN, 20_000)]);
}

describe('failureOf', () => {
  it('keeps the raw line, the fields and the holder of the upstream IP with its state then', () => {
    const live = logLine(T0 + 5 * MIN, 503, 'UC', `${IP}:8080`);
    const f = failureOf(live, parse(live), src, ledger());
    expect(f.raw).toBe(live);
    expect(f.source).toEqual(src);
    expect(f.fields).toMatchObject({
      time: T0 + 5 * MIN,
      code: 503,
      flags: ['UC'],
      method: 'POST',
      path: '/pay',
      authority: 'payments:8080',
      upstreamHost: `${IP}:8080`,
      upstreamCluster: 'outbound|8080||payments.shop.svc.cluster.local',
    });
    expect(f.attribution).toMatchObject({
      upstreamIp: IP,
      pod: { namespace: 'shop', name: 'payments-a' },
      state: 'running',
    });

    const late = logLine(T0 + 11 * MIN, 503, 'UF', `${IP}:8080`);
    const g = failureOf(late, parse(late), src, ledger());
    expect(g.attribution.state).toBe('gone');
    expect(g.attribution.pod?.name).toBe('payments-a');
    expect(g.attribution.deletionStartedAt).not.toBeNull();
    expect(g.attribution.afterTerminationMs).toBeGreaterThan(0);
  });

  it('a record with no upstream address is unattributable, with the reason', () => {
    const line = logLine(T0 + 5 * MIN, 503, 'UH', '-');
    const f = failureOf(line, parse(line), src, ledger());
    expect(f.attribution.state).toBe('unattributable');
    expect(f.attribution.pod).toBeNull();
    expect(f.attribution.reason).toMatch(/no upstream host/);
  });

  it('reads the real istio.io lines: an IP nobody is known to have held is unknown, not unattributable', () => {
    const text = readFixture('access_logs', 'istio-io-docs_text_multi-version.log');
    const first = text.split('\n')[0] as string;
    const f = failureOf(first, parse(first), src, new IpLedger());
    expect(f.fields.code).toBe(200);
    expect(f.fields.upstreamHost).toBe('10.4.180.7:8080');
    expect(f.attribution.upstreamIp).toBe('10.4.180.7');
    expect(f.attribution.state).toBe('unknown');
  });
});
