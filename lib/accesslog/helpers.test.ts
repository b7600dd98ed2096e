import { describe, it, expect } from 'vitest';
import { normalizeIp, parseAddress } from './address';
import { compileFormat, matchFormat } from './format';
import { parseResponseFlags } from './flags';
import { parseAccessLog } from './parser';
import { createSummaryBuilder } from './stats';
import { failuresPerBucket } from './summary';
import { emptyRecord } from './types';
import { readFixture } from '../../test-support/fixtures';

describe('parseAddress', () => {
  it('takes IPv4 only as four parts of at most 255', () => {
    for (const bad of [
      '1.2.3',
      '1.2.3.4.5',
      '1.2.3.256',
      '1..2.3',
      '1.2.3.4.',
      'a.b.c.d',
      '1234.1.1.1',
    ])
      expect(parseAddress(bad), bad).toBeNull();
    expect(parseAddress('255.0.10.1:80')).toEqual({ ip: '255.0.10.1', port: 80 });
  });

  it('reads IPv4, bracketed IPv6 and bare addresses', () => {
    expect(parseAddress('10.1.2.3:8080')).toEqual({ ip: '10.1.2.3', port: 8080 });
    expect(parseAddress('[2001:db8::1]:8080')).toEqual({ ip: '2001:db8::1', port: 8080 });
    expect(parseAddress('2001:db8::1')).toEqual({ ip: '2001:db8::1', port: null });
    expect(parseAddress('10.1.2.3')).toEqual({ ip: '10.1.2.3', port: null });
  });
  it('rejects what is not an address', () => {
    for (const v of [
      '-',
      '',
      null,
      'envoy://internal',
      '10.1.2.300:80',
      '10.1.2.3:99999',
      '[::1',
      'host.example:80',
    ]) {
      expect(parseAddress(v)).toBeNull();
    }
  });
  it('normalizes IPv6 case and IPv4-mapped addresses', () => {
    expect(normalizeIp('2001:DB8::A')).toBe('2001:db8::a');
    expect(normalizeIp('::ffff:10.0.0.1')).toBe('10.0.0.1');
    // one address, however it is written (RFC 5952, as Kubernetes writes pod IPs)
    expect(normalizeIp('2001:db8:0:0::1')).toBe('2001:db8::1');
    expect(normalizeIp('2001:0DB8:0000:0000:0000:0000:0000:0001')).toBe('2001:db8::1');
    expect(normalizeIp('1:0:0:1:0:0:0:1')).toBe('1:0:0:1::1');
    expect(normalizeIp('2001:db8:0:1:1:1:1:1')).toBe('2001:db8:0:1:1:1:1:1');
    expect(normalizeIp('0:0:0:0:0:ffff:1.2.3.4')).toBe('1.2.3.4');
    expect(normalizeIp('not:an::ip::')).toBe('not:an::ip::');
  });
});

describe('format compiler', () => {
  it('splits a format into literals and operators', () => {
    const { format, problems } = compileFormat(
      '[%START_TIME%] "%REQ(:METHOD)%" 100%% %RESPONSE_CODE%',
    );
    expect(format.literals).toEqual(['[', '] "', '" 100% ', '']);
    expect(format.operators.map((o) => o.field)).toEqual(['startTime', 'method', 'responseCode']);
    expect(problems).toEqual([]);
  });
  it('reports odd spots instead of throwing', () => {
    expect(compileFormat('%RESPONSE_CODE%%RESPONSE_FLAGS% 50% off').problems).toMatchObject([
      { line: 1, column: 16, reason: 'adjacent-operators' },
      { line: 1, column: 35, reason: 'stray-percent' },
    ]);
    expect(compileFormat('plain text').problems).toEqual([
      { line: 0, reason: 'no-operators', message: 'format has no operators' },
    ]);
  });
  it('tells mismatch from a line that ran out', () => {
    const { format } = compileFormat('%RESPONSE_CODE% %RESPONSE_FLAGS% "%UPSTREAM_HOST%"');
    expect(matchFormat(format, '503 UC "10.0.0.1:80"').status).toBe('full');
    expect(matchFormat(format, '503 UC "10.0.0.1:80" extra').status).toBe('mismatch');
    expect(matchFormat(format, 'abc UC "10.0.0.1:80"').status).toBe('mismatch');
    expect(matchFormat(format, '503 UC "10.0')).toMatchObject({ status: 'partial', matched: 2 });
  });
  it('validates flags', () => {
    expect(parseResponseFlags('UC,URX')).toEqual({ flags: ['UC', 'URX'], unknown: [] });
    expect(parseResponseFlags('ZZ')).toEqual({ flags: ['ZZ'], unknown: ['ZZ'] });
    expect(parseResponseFlags('via_upstream')).toBeNull();
    for (const bad of ['UC,', ',UC', 'UC,,UF', 'uc', 'ABCDEFGHI', 'UC URX', '503'])
      expect(parseResponseFlags(bad), bad).toBeNull();
    expect(parseResponseFlags('-')).toEqual({ flags: [], unknown: [] });
    expect(parseResponseFlags('ABCDEFGH')?.flags).toEqual(['ABCDEFGH']);
  });
});

describe('summary builder', () => {
  it('counts every line of the docs fixture once', () => {
    const text = readFixture('access_logs', 'istio-io-docs_text_multi-version.log');
    const b = createSummaryBuilder();
    parseAccessLog(`${text.trimEnd()}\n\ngarbage line\n`).forEach((r) => b.add(r));
    const s = b.summary();
    const lines = text.split('\n').filter((l) => l !== '').length;
    expect(s.lines).toBe(lines + 2);
    expect(s.parsed).toBe(lines);
    expect(s.byFlag).toEqual({ '-': lines });
    expect(s.tcp).toBe(text.split('\n').filter((l) => l.includes('"- - -"')).length);
    expect(s.skipped.empty).toEqual({ count: 1, firstLines: [lines + 1] });
    expect(s.errors['unknown-format']).toEqual({ count: 1, firstLines: [lines + 2] });
    expect(s.firstTime).toBe('2017-05-01T22:08:39.310Z');
    expect(s.lastTime).toBe('2024-04-08T20:08:18.451Z');
  });
});

describe('failuresPerBucket', () => {
  const rec = (iso: string, code: number, flags: string[]) => ({
    ...emptyRecord(1, 'json'),
    startTime: iso,
    time: Date.parse(iso),
    responseCode: code,
    responseFlags: flags,
  });
  it('buckets failures per minute by flag, filling empty minutes', () => {
    const { buckets, untimed } = failuresPerBucket([
      rec('2024-01-01T10:00:05Z', 503, ['UC']),
      rec('2024-01-01T10:00:50Z', 503, ['UC', 'URX']),
      rec('2024-01-01T10:00:51Z', 200, []),
      rec('2024-01-01T10:02:00Z', 500, []),
      { ...rec('2024-01-01T10:02:00Z', 503, ['UH']), time: null },
    ]);
    expect(untimed).toBe(1);
    expect(buckets).toEqual([
      { start: '2024-01-01T10:00:00.000Z', count5xx: 2, failures: 2, byFlag: { UC: 2, URX: 1 } },
      { start: '2024-01-01T10:01:00.000Z', count5xx: 0, failures: 0, byFlag: {} },
      { start: '2024-01-01T10:02:00.000Z', count5xx: 1, failures: 1, byFlag: { '-': 1 } },
    ]);
  });
});
