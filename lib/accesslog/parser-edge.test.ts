import { describe, it, expect } from 'vitest';
import { parseAccessLog, createLineParser } from './parser';
import type { AccessLogRecord, LineResult } from './types';

function records(results: LineResult[]): AccessLogRecord[] {
  return results.flatMap((r) => (r.kind === 'record' ? [r.record] : []));
}

function one(line: string, format?: string): AccessLogRecord {
  const r = createLineParser({ format }).push(line);
  if (r.kind !== 'record') throw new Error(`expected a record, got ${JSON.stringify(r)}`);
  return r.record;
}

const V19 =
  '[2024-03-14T18:37:01.451Z] "GET /pay HTTP/1.1" 503 UC upstream_reset_before_response_started{connection_termination} - "-" 0 95 12 - "-" "curl/8.0" "abc-123" "payments:8080" "10.1.2.3:8080" outbound|8080|v1|payments.shop.svc.cluster.local 10.1.9.9:40000 10.96.0.10:8080 10.1.9.9:39999 - default';

describe('custom formats', () => {
  const SEED =
    '[2023-11-12T22:28:36.878Z] "POST /service HTTP/1.1" 503 UC 0 95 44456 - - "20f7..." "yourdomain.com" "10.10.10.10:80"';
  const SEED_FORMAT =
    '[%START_TIME%] "%REQ(:METHOD)% %REQ(X-ENVOY-ORIGINAL-PATH?:PATH)% %PROTOCOL%" %RESPONSE_CODE% %RESPONSE_FLAGS% %BYTES_RECEIVED% %BYTES_SENT% %DURATION% %RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)% %REQ(X-FORWARDED-FOR)% "%REQ(X-REQUEST-ID)%" "%REQ(:AUTHORITY)%" "%UPSTREAM_HOST%"\n';

  it('reads the trimmed seed example with its format string', () => {
    const r = one(SEED, SEED_FORMAT);
    expect(r).toMatchObject({
      format: 'custom',
      partial: false,
      method: 'POST',
      path: '/service',
      responseCode: 503,
      responseFlags: ['UC'],
      bytesSent: 95,
      duration: 44456,
      upstreamServiceTime: null,
      xForwardedFor: null,
      requestId: '20f7...',
      authority: 'yourdomain.com',
      upstreamHost: '10.10.10.10:80',
    });
  });

  it('without the format string keeps the seed line as a partial record, upstream guessed', () => {
    const r = one(SEED);
    expect(r).toMatchObject({
      format: 'istio-prefix',
      partial: true,
      responseCode: 503,
      responseFlags: ['UC'],
      upstreamHost: '10.10.10.10:80',
    });
    expect(r?.extra['%UPSTREAM_HOST%']).toMatch(/^guessed/);
    // no quoted address (only an authority without port): nothing is guessed
    const noAddr = one(
      '[2023-11-12T22:28:36.878Z] "POST /service HTTP/1.1" 503 UC 0 95 44456 - - "20f7" "yourdomain.com"',
    );
    expect(noAddr?.upstreamHost).toBeNull();
  });

  it('handles other operator orders and unknown operators', () => {
    const format =
      '%START_TIME% %UPSTREAM_HOST% code=%RESPONSE_CODE% flags=%RESPONSE_FLAGS% grpc=%GRPC_STATUS% ua="%REQ(USER-AGENT)%"';
    const r = one(
      '2024-01-01T00:00:00Z [2001:db8::1]:8080 code=502 flags=UF,URX grpc=Unavailable ua="Go http client 1.1"',
      format,
    );
    expect(r).toMatchObject({
      upstreamHost: '[2001:db8::1]:8080',
      responseCode: 502,
      responseFlags: ['UF', 'URX'],
      userAgent: 'Go http client 1.1',
    });
    expect(r.extra['%GRPC_STATUS%']).toBe('Unavailable');
  });

  it('says which lines a custom format cannot read', () => {
    const parser = createLineParser({
      format: 'code=%RESPONSE_CODE% host=%UPSTREAM_HOST%',
      onlyCustom: true,
    });
    expect(parser.push('code=503 host=10.0.0.1:80').kind).toBe('record');
    const bad = parser.push('something else entirely');
    expect(bad.kind === 'error' && bad.error).toMatchObject({ line: 2, reason: 'unknown-format' });
  });
});

describe('JSON lines', () => {
  const FULL = {
    start_time: '2024-05-01T10:00:00.123Z',
    method: 'GET',
    path: '/x',
    protocol: 'HTTP/2',
    response_code: 503,
    response_flags: 'UC,URX',
    response_code_details: 'upstream_reset_before_response_started{connection_termination}',
    connection_termination_details: null,
    upstream_transport_failure_reason: null,
    bytes_received: 0,
    bytes_sent: 95,
    duration: 7,
    upstream_service_time: null,
    x_forwarded_for: null,
    user_agent: 'curl/8',
    request_id: 'r-1',
    authority: 'payments:8080',
    upstream_host: '10.1.2.3:8080',
    upstream_cluster: 'outbound|8080||payments.shop.svc.cluster.local',
    upstream_local_address: '10.1.9.9:40000',
    downstream_local_address: '10.96.0.10:8080',
    downstream_remote_address: '10.1.9.9:39999',
    requested_server_name: null,
    route_name: 'default',
  };

  it('reads every key', () => {
    const r = one(JSON.stringify(FULL));
    expect(r).toMatchObject({
      format: 'json',
      method: 'GET',
      path: '/x',
      protocol: 'HTTP/2',
      responseCode: 503,
      responseFlags: ['UC', 'URX'],
      responseCodeDetails: FULL.response_code_details,
      bytesReceived: 0,
      bytesSent: 95,
      duration: 7,
      upstreamServiceTime: null,
      userAgent: 'curl/8',
      requestId: 'r-1',
      authority: 'payments:8080',
      upstreamHost: '10.1.2.3:8080',
      upstreamCluster: FULL.upstream_cluster,
      upstreamLocalAddress: '10.1.9.9:40000',
      downstreamLocalAddress: '10.96.0.10:8080',
      downstreamRemoteAddress: '10.1.9.9:39999',
      routeName: 'default',
    });
    expect(r.time).toBe(Date.UTC(2024, 4, 1, 10, 0, 0, 123));
  });

  it('accepts numbers written as strings and "-" for absent values', () => {
    const r = one(
      JSON.stringify({
        ...FULL,
        response_code: '0',
        response_flags: '-',
        bytes_sent: '1352475',
        upstream_service_time: '-',
        method: '-',
        path: '-',
        protocol: '-',
      }),
    );
    expect(r).toMatchObject({
      responseCode: 0,
      responseFlags: [],
      bytesSent: 1352475,
      upstreamServiceTime: null,
      tcp: true,
    });
  });

  it('reports broken JSON and keeps going', () => {
    const results = parseAccessLog(
      `${JSON.stringify(FULL).slice(0, 60)}\n{"a": 1}\n${JSON.stringify(FULL)}\n`,
    );
    expect(results.map((r) => (r.kind === 'error' ? r.error.reason : r.kind))).toEqual([
      'truncated',
      'unknown-format',
      'record',
    ]);
  });
});

describe('ugly input', () => {
  it('reads IPv6 upstreams', () => {
    const r = one(
      V19.replace('"10.1.2.3:8080"', '"[2001:db8::1]:8080"').replace(
        '10.1.9.9:39999',
        '[2001:db8::9]:39999',
      ),
    );
    expect(r.upstreamHost).toBe('[2001:db8::1]:8080');
    expect(r.downstreamRemoteAddress).toBe('[2001:db8::9]:39999');
  });

  it('strips CRLF line endings', () => {
    const results = parseAccessLog(`${V19}\r\n${V19}\r\n`);
    expect(records(results).map((r) => r.routeName)).toEqual(['default', 'default']);
  });

  it('reports truncated lines, binary garbage and empty lines without throwing', () => {
    const text = [
      V19.slice(0, 40),
      '\u0000\u0001\ufffd\ufffdPK\u0003\u0004',
      '',
      '   ',
      '[2024-01-01T00:00:00Z] nonsense',
      V19.slice(0, V19.indexOf(' outbound')),
    ].join('\n');
    const results = parseAccessLog(text);
    const kinds = results.map((r) =>
      r.kind === 'error'
        ? r.error.reason
        : r.kind === 'skipped'
          ? r.reason
          : r.record.partial
            ? 'partial'
            : 'record',
    );
    expect(kinds).toEqual(['truncated', 'binary', 'empty', 'empty', 'unknown-format', 'partial']);
    const partial = records(results)[0] as AccessLogRecord;
    expect(partial).toMatchObject({
      line: 6,
      upstreamHost: '10.1.2.3:8080',
      responseFlags: ['UC'],
      upstreamCluster: null,
    });
    const errs = results.flatMap((r) => (r.kind === 'error' ? [r.error] : []));
    expect(errs.map((e) => e.line)).toEqual([1, 2, 5]);
  });

  it('never throws on random bytes', () => {
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const parser = createLineParser();
    for (let n = 0; n < 300; n++) {
      const len = Math.floor(rand() * 200);
      let s = n % 3 === 0 ? V19.slice(0, Math.floor(rand() * V19.length)) : '';
      for (let i = 0; i < len; i++) s += String.fromCharCode(Math.floor(rand() * 0x3000));
      expect(() => parser.push(s)).not.toThrow();
    }
  });
});
