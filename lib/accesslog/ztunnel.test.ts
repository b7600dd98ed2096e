import { describe, expect, it } from 'vitest';
import { parseAccessLog } from './parser';
import { durationMs, parseKeyValues, ztunnelFlags, ztunnelPodAddress } from './ztunnel';
import type { AccessLogRecord, LineResult } from './types';

const OK =
  '2024-07-23T14:21:03.450051Z\tinfo\taccess\tconnection complete\tsrc.addr=10.12.0.8:37522 src.workload=sleep-bc9998558-bhv5z src.namespace=my-ambient src.identity="spiffe://cluster.local/ns/my-ambient/sa/sleep" dst.addr=10.12.0.9:15008 dst.hbone_addr=10.12.0.9:5000 dst.service=helloworld.my-ambient.svc.cluster.local dst.workload=helloworld-v1-77489ccb5f-pjbq5 dst.namespace=my-ambient direction="outbound" bytes_sent=67 bytes_recv=490 duration="2ms"';
const REFUSED =
  '2024-07-23T14:22:10.000000Z\terror\taccess\tconnection complete\tsrc.addr="10.12.0.8:40000" src.workload="sleep-bc9998558-bhv5z" src.namespace="my-ambient" dst.addr="10.12.0.44:8080" dst.service="helloworld.my-ambient.svc.cluster.local" direction="outbound" bytes_sent=0 bytes_recv=0 duration="1003ms" error="io error: Connection refused (os error 111)"';
const IPV6 =
  '2024-07-23T14:23:00Z\terror\taccess\tconnection complete\tsrc.addr=[fd00::8]:37522 dst.addr=[fd00::1]:15008 dst.hbone_addr=[fd00:10::9]:5000 direction="inbound" error="connection timed out, maybe a \\"phantom\\" pod" duration="10000ms"';

function record(r: LineResult | undefined): AccessLogRecord {
  if (r?.kind !== 'record') throw new Error(`expected a record, got ${JSON.stringify(r)}`);
  return r.record;
}

describe('ztunnel access logs', () => {
  it('reads a successful connection: pod IP from dst.hbone_addr, start = end - duration', () => {
    const r = record(parseAccessLog(OK)[0]);
    expect(r).toMatchObject({
      format: 'ztunnel',
      upstreamHost: '10.12.0.9:5000',
      downstreamRemoteAddress: '10.12.0.8:37522',
      bytesSent: 67,
      bytesReceived: 490,
      duration: 2,
      responseFlags: [],
      responseCode: null,
      tcp: true,
      upstreamCluster: 'outbound|||helloworld.my-ambient.svc.cluster.local',
      startTime: '2024-07-23T14:21:03.448Z',
    });
    expect(r.time).toBe(Date.parse('2024-07-23T14:21:03.448Z'));
    expect(r.extra['src.identity']).toBe('spiffe://cluster.local/ns/my-ambient/sa/sleep');
    expect(r.extra['dst.workload']).toBe('helloworld-v1-77489ccb5f-pjbq5');
  });

  it('reads a failed connection at error level: quoted values, UF flag, the error kept', () => {
    const r = record(parseAccessLog(REFUSED)[0]);
    expect(r.upstreamHost).toBe('10.12.0.44:8080');
    expect(r.responseFlags).toEqual(['UF']);
    expect(r.upstreamTransportFailureReason).toBe('io error: Connection refused (os error 111)');
    expect(r.duration).toBe(1003);
  });

  it('reads IPv6 addresses and escaped quotes', () => {
    const r = record(parseAccessLog(IPV6)[0]);
    expect(r.upstreamHost).toBe('[fd00:10::9]:5000');
    expect(r.downstreamRemoteAddress).toBe('[fd00::8]:37522');
    expect(r.upstreamTransportFailureReason).toBe('connection timed out, maybe a "phantom" pod');
    expect(r.responseFlags).toEqual(['UF']);
    expect(r.extra.direction).toBe('inbound');
  });

  it('a destination on the HBONE port alone names no pod', () => {
    expect(ztunnelPodAddress(new Map([['dst.addr', '10.0.0.1:15008']]))).toBeNull();
    expect(ztunnelPodAddress(new Map([['dst.addr', '[fd00::1]:15008']]))).toBeNull();
    expect(ztunnelPodAddress(new Map([['dst.addr', '10.0.0.1:8080']]))).toBe('10.0.0.1:8080');
    expect(
      ztunnelPodAddress(
        new Map([
          ['dst.addr', '10.0.0.1:15008'],
          ['dst.hbone_addr', '10.0.0.2:80'],
        ]),
      ),
    ).toBe('10.0.0.2:80');
  });

  it('reports cut lines as truncated with the line number and why', () => {
    const cut = [
      OK.slice(0, OK.indexOf('dst.service') + 20), // cut inside a bare value: src and dst are read
      OK.slice(0, OK.indexOf('src.identity') + 30), // inside a quoted value
      '2024-07-23T14:21:03.450051Z\tinfo\taccess\tconnection complete', // head only
      '2024-07-23T14:21:03.450051Z\tinfo\taccess\tconnection complete\tsrc.addr=10.1.1.1:5', // no dst
    ];
    const results = parseAccessLog(cut.join('\n'));
    expect(record(results[0]).partial).toBe(true);
    expect(record(results[0]).upstreamHost).toBe('10.12.0.9:5000');
    expect(
      results.slice(1).map((r) => (r.kind === 'error' ? [r.error.line, r.error.reason] : r.kind)),
    ).toEqual([
      [2, 'truncated'],
      [3, 'truncated'],
      [4, 'truncated'],
    ]);
    const second = results[1];
    expect(second?.kind === 'error' && second.error.message).toMatch(/value is cut/);
  });

  it('skips "connection opened" and the rest of ztunnel own log, and reads warn "connection failed"', () => {
    const lines = [
      '2024-07-23T14:21:03.440000Z\tdebug\taccess\tconnection opened\tsrc.addr=10.12.0.8:37522 dst.addr=10.12.0.9:15008',
      '2024-07-23T14:21:00.000000Z\tinfo\txds::client:xds{id=2}\treceived response\ttype_url="type.googleapis.com/istio.workload.Address" size=1',
      '2024-07-23T14:21:04.000000Z\twarn\taccess\tconnection failed\tsrc.addr=10.12.0.8:1 dst.addr=10.12.0.50:80 direction="outbound" error="policy rejection"',
    ];
    const r = parseAccessLog(lines.join('\n'));
    expect(r.map((x) => (x.kind === 'skipped' ? x.reason : x.kind))).toEqual([
      'connection-opened',
      'proxy-log',
      'record',
    ]);
    expect(record(r[2]).responseFlags).toEqual(['DENY']);
  });

  it('reads the JSON encoding (LOG_FORMAT=json)', () => {
    const line = JSON.stringify({
      level: 'error',
      time: '2024-07-23T14:21:03.450051Z',
      scope: 'access',
      message: 'connection complete',
      'src.addr': '10.12.0.8:37522',
      'dst.addr': '10.12.0.9:15008',
      'dst.hbone_addr': '10.12.0.9:5000',
      direction: 'outbound',
      bytes_sent: 0,
      bytes_recv: 0,
      duration: '5ms',
      error: 'connection reset by peer',
    });
    const r = record(parseAccessLog(line)[0]);
    expect(r).toMatchObject({ format: 'ztunnel', upstreamHost: '10.12.0.9:5000', duration: 5 });
    expect(r.responseFlags).toEqual(['UR']);
  });

  it('helpers: key=values, durations, flags', () => {
    expect([...parseKeyValues('a=1 b="x y" c="\\u{e9}"', 0).fields]).toEqual([
      ['a', '1'],
      ['b', 'x y'],
      ['c', 'é'],
    ]);
    expect(parseKeyValues('a=1 b="open', 0).cutAt).toBe(6);
    expect([durationMs('2ms'), durationMs('1.5s'), durationMs('500us'), durationMs('x')]).toEqual([
      2,
      1500,
      1,
      null,
    ]);
    expect(ztunnelFlags(undefined, 'info')).toEqual([]);
    expect(ztunnelFlags('something odd', 'error')).toEqual(['ERROR']);
  });
});
