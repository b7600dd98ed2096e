import { describe, expect, it } from 'vitest';
import { readFixture } from '../../test-support/fixtures';
import { IpLedger } from '../ledger/ledger';
import { T0, MIN } from '../../tests/data/ledger/pods';
import { logLine } from '../../tests/data/incidents/logs';
import { readFailures, storedRequests } from './read-failures';
import type { StoredFailure } from './failure-store';

const none = { fromMs: null, toMs: null, service: null, ip: null };

describe('readFailures', () => {
  it('reads the real istio.io log: every line a record, none failing, none to record', () => {
    const text = readFixture('access_logs', 'istio-io-docs_text_multi-version.log');
    const r = readFailures(
      { source: 'docs', clientPod: null, text },
      'upload',
      null,
      new IpLedger(),
    );
    expect(r.source.records).toBe(41);
    expect(r.failures).toEqual([]);
    // the newest of its versions' examples (PROVENANCE: 2017 to 2024)
    expect(r.newest).toBe(Date.parse('2024-04-08T20:08:18.451Z'));
  });

  it('keeps failing outbound lines with their raw text, counts inbound ones and unreadable lines', () => {
    const text = [
      logLine(T0, 503, 'UC', '10.8.0.5:8080'),
      logLine(T0 + MIN, 200, '-', '10.8.0.5:8080'),
      logLine(T0 + 2 * MIN, 503, 'UH', '-'),
      logLine(T0 + 3 * MIN, 503, '-', '10.8.0.6:8080', { cluster: 'inbound|8080||' }),
      '{"not json',
    ].join('\n');
    const r = readFailures(
      { source: 'shop/web-1', clientPod: 'shop/web-1', text },
      'view',
      'uid-1',
      new IpLedger(),
    );
    expect(r.failures.map((f) => f.fields.time)).toEqual([T0, T0 + 2 * MIN]);
    expect(r.failures[0]?.raw).toBe(text.split('\n')[0]);
    expect(r.failures[0]?.source).toEqual({ read: 'view', proxy: 'shop/web-1', proxyUid: 'uid-1' });
    expect(r.failures[1]?.attribution.state).toBe('unattributable');
    expect(r.inbound).toBe(1);
    expect(r.source.errors).toBe(1);
    expect(r.lineErrors[0]?.source).toBe('shop/web-1');
  });

  it('records nothing from a log that could not be read, and says why', () => {
    const r = readFailures(
      { source: 'shop/web-1', clientPod: 'shop/web-1', text: '', problem: 'pod gone' },
      'view',
      null,
      new IpLedger(),
    );
    expect(r.failures).toEqual([]);
    expect(r.source.problem).toBe('pod gone');
  });
});

describe('storedRequests', () => {
  it('gives the recorded attribution back as view requests, filtered by service and IP', () => {
    const text = [
      logLine(T0, 503, 'UC', '10.8.0.5:8080'),
      logLine(T0 + MIN, 503, 'UF', '10.8.0.6:8080', {
        cluster: 'outbound|8080||orders.shop.svc.cluster.local',
      }),
    ].join('\n');
    const r = readFailures(
      { source: 'shop/web-1', clientPod: 'shop/web-1', text },
      'view',
      null,
      new IpLedger(),
    );
    const stored: StoredFailure[] = r.failures.map((f, i) => ({ ...f, id: i + 1, recordedAt: T0 }));
    const all = storedRequests(stored, none);
    expect(all.map((q) => [q.source, q.clientName, q.upstreamIp, q.state])).toEqual([
      ['shop/web-1', 'shop/web-1', '10.8.0.5', 'unknown'],
      ['shop/web-1', 'shop/web-1', '10.8.0.6', 'unknown'],
    ]);
    expect(storedRequests(stored, { ...none, service: 'orders' })).toHaveLength(1);
    expect(storedRequests(stored, { ...none, ip: '10.8.0.5' })[0]?.flags).toEqual(['UC']);
  });
});
