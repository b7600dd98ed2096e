import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLineParser, parseAccessLog } from './parser';
import type { AccessLogRecord, LineResult } from './types';

const FIXTURES = path.resolve(__dirname, '../../../shared/fixtures');
const DOCS = fs
  .readFileSync(path.join(FIXTURES, 'access_logs/istio-io-docs_text_multi-version.log'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '');

const V19 =
  '[2024-03-01T10:00:00.123Z] "GET /status/503 HTTP/1.1" 503 UC upstream_reset_before_response_started{connection_termination} - "-" 0 95 44 - "-" "curl/8.5.0" "abc-123" "httpbin:8000" "10.244.1.7:8080" outbound|8000||httpbin.default.svc.cluster.local 10.244.0.5:47010 10.96.12.3:8000 10.244.0.5:47008 - default';

function rec(r: LineResult | undefined): AccessLogRecord {
  if (r?.kind !== 'record') throw new Error(`expected a record, got ${JSON.stringify(r)}`);
  return r.record;
}

describe('access-log lines without the leading start time', () => {
  it('every docs line read with its time also reads without it, same fields, no time', () => {
    for (const line of DOCS) {
      const timed = parseAccessLog(line)[0];
      if (timed?.kind !== 'record' || !line.startsWith('[')) continue;
      const untimed = rec(parseAccessLog(line.slice(line.indexOf('] ') + 2))[0]);
      expect(untimed.time).toBeNull();
      expect(untimed.startTime).toBeNull();
      expect(untimed.format).toBe(`${timed.record.format}:no-start-time`);
      expect(untimed.responseCode).toBe(timed.record.responseCode);
      expect(untimed.upstreamHost).toBe(timed.record.upstreamHost);
      expect(untimed.upstreamCluster).toBe(timed.record.upstreamCluster);
    }
  });

  it('a 1.9+ failing gateway line pasted without its time keeps code, flags, upstream, cluster', () => {
    const r = rec(parseAccessLog(V19.slice(V19.indexOf('] ') + 2))[0]);
    expect(r).toMatchObject({
      format: 'istio-1.9+:no-start-time',
      responseCode: 503,
      responseFlags: ['UC'],
      upstreamHost: '10.244.1.7:8080',
      upstreamCluster: 'outbound|8000||httpbin.default.svc.cluster.local',
      time: null,
    });
  });

  it('a TCP line without time, and an untimed line right after a proxy log line', () => {
    const tcp =
      '"- - -" 0 UF - - "-" 0 0 1001 - "-" "-" "-" "-" "10.244.2.9:9000" outbound|9000||db.default.svc.cluster.local - 10.96.0.9:9000 10.244.0.5:52000 - -';
    const r = parseAccessLog(`2024-01-01T00:00:00.000000Z\tinfo\txdsproxy\tconnected\n${tcp}`);
    expect(r[0]).toMatchObject({ kind: 'skipped', reason: 'proxy-log' });
    expect(rec(r[1])).toMatchObject({ tcp: true, responseFlags: ['UF'], time: null });
  });
});

describe('records behind a prefix', () => {
  it('kubectl logs --prefix, with and without --timestamps: the pod is the source', () => {
    const r = parseAccessLog(
      [
        `[pod/httpbin-7f9c6-abcde/istio-proxy] ${V19}`,
        `[pod/httpbin-7f9c6-abcde/istio-proxy] 2024-03-01T10:00:00.223456789Z ${V19}`,
      ].join('\n'),
    );
    expect(rec(r[0])).toMatchObject({ source: 'httpbin-7f9c6-abcde', responseCode: 503 });
    expect(rec(r[0]).time).toBe(Date.parse('2024-03-01T10:00:00.123Z'));
    expect(rec(r[1])).toMatchObject({
      source: 'httpbin-7f9c6-abcde',
      logTimestamp: '2024-03-01T10:00:00.223456789Z',
    });
  });

  it('a shipper’s time before the kubectl prefix: the record and its pod are still found', () => {
    const r = rec(parseAccessLog(`2024-03-01T10:00:01Z [pod/web-7/istio-proxy] ${V19}`)[0]);
    expect(r).toMatchObject({ source: 'web-7', responseCode: 503 });
    expect(r.startTime).toBe('2024-03-01T10:00:00.123Z');
  });

  it('the default format’s own [START_TIME] is not a prefix', () => {
    const r = rec(parseAccessLog(V19)[0]);
    expect(r.source).toBeUndefined();
    expect(r.startTime).toBe('2024-03-01T10:00:00.123Z');
  });

  it('stern output, with colour codes, one or several namespaces', () => {
    const colour = `\u001b[32mhttpbin-7f9c6-abcde\u001b[0m \u001b[34mistio-proxy\u001b[0m ${V19}`;
    const all = `default httpbin-7f9c6-abcde istio-proxy ${V19.slice(V19.indexOf('] ') + 2)}`;
    const r = parseAccessLog([colour, all].join('\n'));
    expect(rec(r[0])).toMatchObject({ source: 'httpbin-7f9c6-abcde', responseFlags: ['UC'] });
    expect(rec(r[1])).toMatchObject({ source: 'httpbin-7f9c6-abcde', time: null });
  });

  it('stern lines of the proxy’s own log are skipped, continuations too, records still read', () => {
    const p = 'httpbin-7f9c6-abcde istio-proxy';
    const r = parseAccessLog(
      [
        `${p} 2024-01-01T00:00:00.000000Z\tinfo\tsds\tSDS: PUSH`,
        `${p}   concurrency: 2`,
        `${p} ${V19}`,
      ].join('\n'),
    );
    expect(r.map((x) => (x.kind === 'skipped' ? x.reason : x.kind))).toEqual([
      'proxy-log',
      'proxy-log-continuation',
      'record',
    ]);
  });

  it('a log UI’s own columns: the record is found, no pod is made up', () => {
    const r = rec(parseAccessLog(`2024-03-01 10:00:00.500\tnode-3\tINFO\t${V19}`)[0]);
    expect(r.responseCode).toBe(503);
    expect(r.source).toBeUndefined();
    const json = rec(
      parseAccessLog(
        `Mar 1 10:00:00 gw-1 {"start_time":"2024-03-01T10:00:00Z","response_code":"503","upstream_host":"10.0.0.1:80"}`,
      )[0],
    );
    expect(json.upstreamHost).toBe('10.0.0.1:80');
  });

  it('a cut record behind a prefix is unreadable, not read as a record without time', () => {
    const cut = V19.slice(0, V19.indexOf(' 503 UC') + 7);
    const r = parseAccessLog(`[pod/a-1/istio-proxy] ${cut}\npod-a istio-proxy ${cut}`);
    expect(r.map((x) => (x.kind === 'error' ? x.error.reason : x.kind))).toEqual([
      'record',
      'record',
    ]);
    // the prefix fallback reads the head of a cut line: time, code and flags are kept
    expect(rec(r[0]).time).not.toBeNull();
    const worse = V19.slice(0, 40);
    const w = parseAccessLog(`pod-a istio-proxy ${worse}`)[0];
    expect(w?.kind === 'error' && w.error.reason).toBe('truncated');
  });
});

describe('known non-access lines are skipped with a reason', () => {
  it('Envoy /stats text (the circuit-breaking fixture) and Prometheus text', () => {
    const stats = fs.readFileSync(
      path.join(FIXTURES, 'stats/istio-io_circuit_breaking_stats.txt'),
      'utf8',
    );
    const extra = [
      'cluster.outbound|80||x.default.svc.cluster.local.upstream_rq_time: P0(nan,1) P25(nan,2)',
      'cluster_manager.active_clusters: 42',
      '# TYPE envoy_cluster_upstream_rq_total counter',
      'envoy_cluster_upstream_rq_total{cluster_name="xds-grpc"} 12',
    ];
    const r = parseAccessLog(`${stats.trimEnd()}\n${extra.join('\n')}`);
    expect(r.length).toBe(11);
    expect(r.every((x) => x.kind === 'skipped' && x.reason === 'stats')).toBe(true);
  });

  it('istio-agent text and JSON, Envoy’s own lines: proxy-log, never errors', () => {
    const r = parseAccessLog(
      [
        '2024-01-01T00:00:00.000000Z\tinfo\txdsproxy\tconnected to upstream XDS server: istiod.istio-system.svc:15012',
        '{"level":"info","time":"2024-01-01T00:00:00.000000Z","scope":"xdsproxy","msg":"connected"}',
        '{"level":"warn","time":"2024-01-01T00:00:00Z","scope":"envoy","msg":"gRPC config stream closed","path":"/x","duration":3}',
        '[2024-01-01 00:00:00.000][12][warning][config] [source/common/config/grpc_stream.h:101] StreamAggregatedResources gRPC config stream closed',
      ].join('\n'),
    );
    expect(r.map((x) => (x.kind === 'skipped' ? x.reason : x.kind))).toEqual([
      'proxy-log',
      'proxy-log',
      'proxy-log',
      'proxy-log',
    ]);
  });

  it('a junk line is still an error with its line number', () => {
    const parser = createLineParser();
    parser.push(V19);
    const r = parser.push('this is not a log line');
    expect(r).toMatchObject({ kind: 'error', error: { line: 2, reason: 'unknown-format' } });
  });
});
