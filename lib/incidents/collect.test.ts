import { describe, it, expect } from 'vitest';
import { readFixture } from '../../test-support/fixtures';
import { IpLedger } from '../ledger/ledger';
import { ev, heldThenDeleted, MIN, T0 } from '../../tests/data/ledger/pods';
import { collectRequests, serviceMatches, type RequestFilter } from './collect';
import { logLine } from '../../tests/data/incidents/logs';
import { readFailures } from './read-failures';

const IP = '10.8.0.5';
const none: RequestFilter = { fromMs: null, toMs: null, service: null, ip: null };

/** payments-a holds IP until T0+10min (+20s gone); payments-b gets the same IP at T0+12min. */
function ledger(): IpLedger {
  return new IpLedger().addAll([
    ...heldThenDeleted('payments-a', IP, T0 + 10 * MIN, 20_000),
    ev('ADDED', { name: 'payments-b' }, T0 + 12 * MIN),
    ev('MODIFIED', { name: 'payments-b', ip: IP, start: T0 + 12 * MIN }, T0 + 12 * MIN + 500),
  ]);
}

describe('collectRequests', () => {
  it('reads the real istio.io access-log lines: all records, none failing', () => {
    const text = readFixture('access_logs', 'istio-io-docs_text_multi-version.log');
    const lines = text.split('\n').filter((l) => l.trim() !== '').length;
    const c = collectRequests([{ source: 'docs', clientPod: null, text }], new IpLedger(), none);
    // PROVENANCE: 41 lines, 0 x 503, no flags
    expect(lines).toBe(41);
    expect(c.records + (c.sources[0]?.errors ?? 0) + (c.sources[0]?.skipped ?? 0)).toBe(41);
    expect(c.records).toBe(41);
    expect(c.failing).toBe(0);
    expect(c.requests).toEqual([]);
    const all = collectRequests([{ source: 'docs', clientPod: null, text }], new IpLedger(), {
      ...none,
      all: true,
    });
    expect(all.requests.length + all.inbound).toBe(41);
  });

  it('counts the requests read in the window only: a narrower window never reads more', () => {
    const text = readFixture('access_logs', 'istio-io-docs_text_multi-version.log');
    const log = { source: 'docs', clientPod: null, text };
    const input = [log];
    const times = readFailures(log, 'upload', null, new IpLedger()).newest;
    expect(times).not.toBeNull();
    const wide = { ...none, fromMs: Date.parse('2017-01-01T00:00:00Z'), toMs: times };
    const narrow = { ...none, fromMs: Date.parse('2020-01-01T00:00:00Z'), toMs: times };
    const a = collectRequests(input, new IpLedger(), wide);
    const b = collectRequests(input, new IpLedger(), narrow);
    expect(a.records).toBe(41);
    expect(b.records).toBeGreaterThan(0);
    expect(b.records).toBeLessThan(a.records);
    // the same window read again gives the same figure, and the store path counts it alike
    expect(collectRequests(input, new IpLedger(), narrow).records).toBe(b.records);
    const window = { fromMs: narrow.fromMs, toMs: narrow.toMs ?? 0 };
    expect(readFailures(log, 'upload', null, new IpLedger(), { window }).inWindow).toBe(b.records);
  });

  it('attributes by (ip, time): the same IP goes to the old pod before reuse and the new one after', () => {
    const text = [
      logLine(T0 + 10 * MIN + 5000, 503, 'UC', `${IP}:8080`),
      logLine(T0 + 11 * MIN, 503, 'UF', `${IP}:8080`),
      logLine(T0 + 13 * MIN, 503, 'URX', `${IP}:8080`),
      logLine(T0 + 13 * MIN, 200, '-', `${IP}:8080`),
    ].join('\n');
    const c = collectRequests(
      [{ source: 'shop/checkout-1', clientPod: 'shop/checkout-1', text }],
      ledger(),
      none,
    );
    expect(c.records).toBe(4);
    expect(c.failing).toBe(3);
    expect(c.requests.map((r) => [r.pod?.name, r.state])).toEqual([
      ['payments-a', 'terminating'],
      ['payments-a', 'terminated'],
      ['payments-b', 'live'],
    ]);
    expect(c.requests.every((r) => r.clientName === 'shop/checkout-1')).toBe(true);
    expect(c.requests[1]?.afterTerminationMs).toBe(MIN);
  });

  it('reports unreadable lines with their numbers, skips proxy lines, counts inbound and out-of-window', () => {
    const text = [
      logLine(T0 + 11 * MIN, 503, 'UC', `${IP}:8080`),
      'garbage that is no log line',
      '2026-01-01T00:00:00.000000Z\twarning\tenvoy config\tsomething',
      logLine(T0 + 11 * MIN, 503, 'UC', `${IP}:8080`, { cluster: 'inbound|8080||' }),
      logLine(T0 + 30 * MIN, 503, 'UC', `${IP}:8080`),
      '\u0000\u0001binary',
      '',
    ].join('\n');
    const c = collectRequests([{ source: 'up', clientPod: null, text }], ledger(), {
      ...none,
      fromMs: T0,
      toMs: T0 + 20 * MIN,
    });
    expect(c.lineErrors.map((e) => e.line)).toEqual([2, 6]);
    expect(c.sources[0]).toMatchObject({ lines: 6, records: 3, failing: 3, errors: 2, skipped: 1 });
    expect(c.inbound).toBe(1);
    expect(c.outsideWindow).toBe(1);
    expect(c.requests).toHaveLength(1);
  });

  it('keeps a failed fetch as a source with its problem', () => {
    const c = collectRequests(
      [{ source: 'shop/x', clientPod: 'shop/x', text: '', problem: 'HTTP 403' }],
      ledger(),
      none,
    );
    expect(c.sources).toEqual([
      {
        source: 'shop/x',
        lines: 0,
        records: 0,
        failing: 0,
        errors: 0,
        skipped: 0,
        problem: 'HTTP 403',
      },
    ]);
  });

  it('filters by service and upstream IP', () => {
    const text = [
      logLine(T0 + 11 * MIN, 503, 'UC', `${IP}:8080`),
      logLine(T0 + 11 * MIN, 503, 'UC', '10.8.0.6:8080', {
        cluster: 'outbound|8080||inventory.shop.svc.cluster.local',
      }),
    ].join('\n');
    const input = [{ source: 's', clientPod: null, text }];
    expect(
      collectRequests(input, ledger(), { ...none, service: 'inventory' }).requests,
    ).toHaveLength(1);
    expect(collectRequests(input, ledger(), { ...none, ip: IP }).requests[0]?.upstreamIp).toBe(IP);
    expect(serviceMatches('payments.shop.svc.cluster.local', 'payments.shop')).toBe(true);
    expect(serviceMatches('payments.shop.svc.cluster.local', 'pay')).toBe(false);
    expect(serviceMatches(null, 'payments')).toBe(false);
  });
});
