import { describe, expect, it } from 'vitest';
import { createLineParser, parseAccessLog } from './parser';
import type { AccessLogRecord, LineResult } from './types';
import { readPasted } from '../../tests/data/pasted/read';

function kinds(results: LineResult[]): string[] {
  return results.map((r) =>
    r.kind === 'record' ? 'record' : r.kind === 'skipped' ? r.reason : `error:${r.error.reason}`,
  );
}

function records(results: LineResult[]): AccessLogRecord[] {
  return results.flatMap((r) => (r.kind === 'record' ? [r.record] : []));
}

function lines(text: string): string[] {
  return text.split('\n').filter((l) => l !== '');
}

describe('ztunnel lines as people paste them', () => {
  it('reads the istio.io troubleshooting lines, fields separated by runs of spaces', () => {
    const results = parseAccessLog(readPasted('ztunnel-istio-docs-spaces.log'));
    expect(kinds(results)).toEqual(Array(6).fill('record'));
    const [inbound, outbound] = records(results);
    expect(inbound).toMatchObject({
      format: 'ztunnel',
      upstreamHost: '10.244.1.10:9080',
      downstreamRemoteAddress: '10.244.1.12:60059',
      bytesSent: 175,
      bytesReceived: 80,
      duration: 1,
      responseFlags: [],
      responseCodeDetails: 'connection_complete',
      startTime: '2024-05-04T09:59:05.027Z',
    });
    expect(inbound?.extra.direction).toBe('inbound');
    // the quoted hbone address is the pod, not the peer's HBONE port
    expect(outbound?.upstreamHost).toBe('10.244.1.10:9080');
    expect(outbound?.extra['src.identity']).toBe('spiffe://cluster.local/ns/default/sa/curl');
  });

  it('reads a lab README: access lines become records, ztunnel own lines are skipped', () => {
    const results = parseAccessLog(readPasted('ztunnel-kubewarden-rfc.log'));
    expect(kinds(results)).toEqual([
      'record',
      'record',
      'record',
      'record',
      'proxy-log',
      'proxy-log',
      'record',
      'record',
      'proxy-log',
      'record',
    ]);
    const rs = records(results);
    // outside the mesh: no hbone address, dst.addr is the destination itself
    expect(rs[0]?.upstreamHost).toBe('142.251.209.46:80');
    expect(rs[0]?.duration).toBe(357);
    const denied = rs.filter((r) => r.responseFlags.length > 0);
    expect(denied.map((r) => [r.responseFlags, r.upstreamTransportFailureReason])).toEqual([
      [['DENY'], 'http status: 401 Unauthorized'],
      [
        ['DENY'],
        'connection closed due to policy rejection: explicitly denied by: default/deny-http-server-protect',
      ],
    ]);
  });

  it('reads error lines with quoted values that contain spaces and colons', () => {
    const rs = records(parseAccessLog(readPasted('ztunnel-openshift-crc-errors.log')));
    expect(rs).toHaveLength(8);
    for (const r of rs) {
      expect(r.responseFlags).toEqual(['DENY']);
      expect(r.upstreamTransportFailureReason).toBe(
        'connection closed due to policy rejection: explicitly denied by: istio-system/istio_converted_static_strict',
      );
      expect(r.extra['dst.namespace']).toMatch(/^(test|golang-ex)$/);
    }
  });

  it('a line whose tabs survive except one reads the same as the all-tab line', () => {
    const spaced = lines(readPasted('ztunnel-kubewarden-rfc.log'))[2] as string;
    const tabbed = spaced
      .replace(' info access connection complete ', '\tinfo\taccess\tconnection complete\t')
      .replace(/^/, '');
    const expected = records(parseAccessLog(tabbed))[0];
    expect(expected?.upstreamHost).toBe('10.244.1.5:18080');
    const variants = [
      tabbed.replace('complete\t', 'complete '), // the tab after the message lost
      tabbed.replace('\taccess', ' access'), // one head tab lost
      tabbed.replace(/\t/g, '  '), // all of them, two spaces each
    ];
    for (const v of variants) {
      const r = parseAccessLog(v)[0];
      expect(r?.kind, v).toBe('record');
      expect(r?.kind === 'record' && { ...r.record, extra: {} }).toEqual({
        ...expected,
        extra: {},
      });
    }
  });

  it('reads lines without their time, behind kubectl --prefix, --timestamps or stern', () => {
    const line = lines(readPasted('ztunnel-openshift-crc-errors.log'))[0] as string;
    const untimed = line.slice(line.indexOf('error '));
    const cases = [
      untimed,
      `[pod/ztunnel-x8kq2/istio-proxy] ${line}`,
      `2025-10-30T22:23:01.119900123Z ${line}`,
      `ztunnel-x8kq2 istio-proxy ${line}`,
      `istio-system ztunnel-x8kq2 istio-proxy ${untimed}`,
    ];
    const results = parseAccessLog(cases.join('\n'));
    expect(kinds(results)).toEqual(Array(5).fill('record'));
    const rs = records(results);
    expect(rs.map((r) => r.upstreamHost)).toEqual(Array(5).fill('10.217.0.248:8080'));
    expect(rs[0]?.time).toBeNull();
    expect(rs[1]?.source).toBe('ztunnel-x8kq2');
    expect(rs[2]?.logTimestamp).toBe('2025-10-30T22:23:01.119900123Z');
    expect(rs[2]?.startTime).toBe('2025-10-30T22:23:01.119Z');
    expect(rs[3]?.source).toBe('ztunnel-x8kq2');
    expect(rs[4]?.time).toBeNull();
  });

  it('a pasted line cut inside a quoted value is still reported as cut', () => {
    const line = lines(readPasted('ztunnel-openshift-crc-errors.log'))[0] as string;
    const r = parseAccessLog(line.slice(0, line.indexOf('policy rejection')))[0];
    expect(r?.kind === 'error' && r.error.reason).toBe('truncated');
  });
});

describe('component log lines of every Istio generation', () => {
  it('are skipped as the proxy own log, each on its own, never counted as unreadable', () => {
    const text = readPasted('component-lines-istio-generations.log');
    for (const line of lines(text)) {
      // a fresh parser per line: no continuation state helps
      const r = createLineParser().push(line);
      expect(r.kind === 'skipped' && r.reason, line).toBe('proxy-log');
    }
    expect(new Set(kinds(parseAccessLog(text)))).toEqual(new Set(['proxy-log']));
  });
});
