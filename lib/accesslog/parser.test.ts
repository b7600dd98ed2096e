import { describe, it, expect } from 'vitest';
import { readFixture, listFixtures } from '../../test-support/fixtures';
import { parseAccessLog, createLineParser } from './parser';
import { RESPONSE_FLAGS } from './flags';
import type { AccessLogRecord, LineResult } from './types';

const DOCS_LOG = readFixture('access_logs', 'istio-io-docs_text_multi-version.log');
const DOCS_LINES = DOCS_LOG.split('\n').filter((l) => l !== '');

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

describe('Istio TEXT access logs from istio.io docs (every line)', () => {
  const results = parseAccessLog(DOCS_LOG);
  const recs = records(results);

  it('reads every line of the file as an access-log record', () => {
    expect(results).toHaveLength(DOCS_LINES.length);
    expect(recs).toHaveLength(41);
    expect(results.filter((r) => r.kind !== 'record')).toEqual([]);
  });

  it('gets response codes that match the file itself', () => {
    const expected: Record<string, number> = {};
    for (const l of DOCS_LINES) {
      const code = /^\[[^\]]+\] "[^"]*" (\d+) /.exec(l)?.[1] ?? 'none';
      expected[code] = (expected[code] ?? 0) + 1;
    }
    const got: Record<string, number> = {};
    for (const r of recs) got[String(r.responseCode)] = (got[String(r.responseCode)] ?? 0) + 1;
    expect(got).toEqual(expected);
    expect(got['418']).toBe(7);
  });

  it('reads the pre-1.1 generation (no cluster)', () => {
    const r = recs[0] as AccessLogRecord;
    expect(r.format).toBe('istio-pre-1.1');
    expect(r).toMatchObject({
      method: 'GET',
      path: '/',
      protocol: 'HTTP/1.1',
      responseCode: 200,
      responseFlags: [],
      bytesReceived: 0,
      bytesSent: 398,
      duration: 3,
      upstreamServiceTime: 3,
      userAgent: 'curl/7.47.0',
      authority: 'service-two',
      upstreamHost: '10.4.180.7:8080',
      upstreamCluster: null,
      partial: false,
    });
    expect(r.time).toBe(Date.UTC(2017, 4, 1, 22, 8, 39, 310));
  });

  it('reads the 1.1 generation with cluster and addresses', () => {
    const r = recs.find(
      (x) => x.requestId === '6f93c9cc-d32a-4878-b56a-086a740045d2',
    ) as AccessLogRecord;
    expect(r.format).toBe('istio-1.1-1.8');
    expect(r).toMatchObject({
      upstreamHost: '10.10.0.90:5000',
      upstreamCluster: 'outbound|5000||helloworld.sample.svc.cluster.local',
      upstreamLocalAddress: null,
      downstreamLocalAddress: '10.20.194.146:5000',
      downstreamRemoteAddress: '10.10.0.89:59646',
      requestedServerName: null,
    });
  });

  it('reads TCP lines of every generation', () => {
    const tcp = recs.filter((r) => r.tcp);
    expect(tcp).toHaveLength(DOCS_LINES.filter((l) => l.includes('"- - -"')).length);
    expect(tcp.every((r) => r.responseCode === 0 && r.method === null && r.path === null)).toBe(
      true,
    );
    const last = tcp[tcp.length - 1] as AccessLogRecord;
    expect(last).toMatchObject({
      format: 'istio-1.9+',
      bytesReceived: 839,
      bytesSent: 2504837,
      duration: 46,
      upstreamHost: '151.101.67.5:443',
      requestedServerName: 'edition.cnn.com',
      routeName: null,
    });
  });

  it('reads the mixer-status generations', () => {
    const mixer = recs.find(
      (x) =>
        x.requestId === 'd209e46f-9ed5-9b61-bbdd-43e22662702a' && x.upstreamHost === '127.0.0.1:80',
    ) as AccessLogRecord;
    expect(mixer.format).toBe('istio-1.1-1.8:mixer');
    expect(mixer.requestedServerName).toBe('outbound_.8000_._.httpbin.default.svc.cluster.local');
    expect(mixer.extra['%DYNAMIC_METADATA(istio.mixer:status)%']).toBe('-');
    const six = recs.find(
      (x) => x.requestId === 'ea379962-9b5c-4431-ab66-f01994f5a5a5',
    ) as AccessLogRecord;
    expect(six.format).toBe('istio-1.1-1.8:mixer+failure-reason');
    expect(six).toMatchObject({
      protocol: 'HTTP/2',
      responseCode: 301,
      requestedServerName: 'edition.cnn.com',
      routeName: null,
    });
  });

  it('reads the 1.9+ generation with details and route name', () => {
    const r = recs.find(
      (x) => x.requestId === '86e54df0-6dc3-46b3-a8b8-139474c32a4d',
    ) as AccessLogRecord;
    expect(r).toMatchObject({
      format: 'istio-1.9+',
      responseCodeDetails: 'via_upstream',
      connectionTerminationDetails: null,
      upstreamTransportFailureReason: null,
      upstreamCluster: 'outbound|443||my-nginx.mesh-external.svc.cluster.local',
      routeName: 'default.forward-nginx-from-egress-gateway.0',
      partial: false,
    });
  });

  it('keeps lines the docs cut short as partial records', () => {
    const partial = recs.filter((r) => r.partial);
    expect(partial.map((r) => r.line)).toEqual([
      DOCS_LINES.findIndex((l) => l.startsWith('[2022-05-19')) + 1,
      DOCS_LINES.findIndex((l) => l.endsWith('...')) + 1,
    ]);
    expect(partial[0]).toMatchObject({
      upstreamHost: '10.107.176.65:443',
      responseCode: 200,
      upstreamCluster: null,
    });
    expect(partial[1]).toMatchObject({
      requestId: '1854226d-41ec-445c-b542-9e43861b5331',
      responseCode: 200,
      upstreamHost: null,
    });
  });
});

describe('proxy container logs', () => {
  for (const file of listFixtures('proxy_logs')) {
    it(`skips and counts every proxy line of ${file}`, () => {
      const text = readFixture('proxy_logs', file);
      const lines = text.split('\n');
      if (lines[lines.length - 1] === '') lines.pop();
      const results = parseAccessLog(text);
      expect(results).toHaveLength(lines.length);
      const count = (reason: string) =>
        results.filter((r) => r.kind === 'skipped' && r.reason === reason).length;
      expect(count('proxy-log')).toBe(
        lines.filter((l) => /^\d{4}-\d\d-\d\dT[^\t ]+\t/.test(l)).length,
      );
      expect(count('empty')).toBe(lines.filter((l) => l.trim() === '').length);
      expect(count('proxy-log') + count('empty') + count('proxy-log-continuation')).toBe(
        lines.length,
      );
    });
  }

  it('parses access-log lines mixed into proxy logs, with kubectl --timestamps prefixes', () => {
    const text = [
      '2020-07-01T10:00:00.000000Z\tinfo\tEnvoy proxy is ready',
      'accessLogFile: /dev/stdout',
      `2024-03-14T18:37:01.500000000Z ${V19}`,
      '[2020-07-01 10:00:00.000][14][warning][config] [external/envoy/source/common/config/grpc_stream.h:101] gRPC config stream closed',
      '{"level":"info","time":"2024-01-01T00:00:00Z","msg":"xds: connected"}',
      V19,
    ].join('\n');
    const results = parseAccessLog(text);
    expect(
      results.map((r) =>
        r.kind === 'record' ? 'record' : r.kind === 'skipped' ? r.reason : r.error.reason,
      ),
    ).toEqual([
      'proxy-log',
      'proxy-log-continuation',
      'record',
      'proxy-log',
      'proxy-log',
      'record',
    ]);
    const rec = records(results)[0] as AccessLogRecord;
    expect(rec.logTimestamp).toBe('2024-03-14T18:37:01.500000000Z');
    expect(rec.line).toBe(3);
    expect(rec.responseFlags).toEqual(['UC']);
  });
});

describe('response flags', () => {
  for (const flag of Object.keys(RESPONSE_FLAGS)) {
    it(`reads ${flag}`, () => {
      const r = one(V19.replace(' 503 UC ', ` 503 ${flag} `));
      expect(r.responseFlags).toEqual([flag]);
      expect(r.format).toBe('istio-1.9+');
    });
  }
  it('reads several flags on one line', () => {
    expect(one(V19.replace(' 503 UC ', ' 503 UF,URX ')).responseFlags).toEqual(['UF', 'URX']);
    expect(one(V19.replace(' 503 UC ', ' 0 UO,UT,DC ')).responseFlags).toEqual(['UO', 'UT', 'DC']);
  });
});
