import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLineParser, parseAccessLog } from '../accesslog/parser';
import { mapLogsRequest } from '../otlp/map';
import type { OtlpKeyValue } from '../otlp/types';
import { failureIdentity } from './failure-identity';
import { failureFields } from './failure-record';

const FIXTURE = fs.readFileSync(
  path.resolve(
    __dirname,
    '../../../shared/fixtures/access_logs/istio-io-docs_text_multi-version.log',
  ),
  'utf8',
);
const LINES = FIXTURE.split('\n').filter((l) => l.trim() !== '');
const PROXY = 'shop/checkout-1';

/** The fixture's records as the log parser reads them from a proxy's log. */
const fromLog = parseAccessLog(LINES.join('\n')).flatMap((r, i) =>
  r.kind === 'record' ? [{ raw: LINES[i]!, record: r.record }] : [],
);

const idOf = (e: (typeof fromLog)[number], proxy = PROXY) =>
  failureIdentity(proxy, failureFields(e.record), e.raw);

const kv = (key: string, v: string | number | null): OtlpKeyValue =>
  typeof v === 'number'
    ? { key, value: { intValue: v } }
    : { key, value: { stringValue: v ?? '-' } };

describe('failureIdentity', () => {
  it('is the same for a line of the real fixture read from the log and sent to the receiver as Envoy sends it', () => {
    const mapped = mapLogsRequest(
      {
        resourceLogs: [
          {
            scopeLogs: [
              {
                logRecords: fromLog.map((e) => ({
                  timeUnixNano: `${e.record.time}000000`,
                  body: { stringValue: `${e.raw}\n` },
                })),
              },
            ],
          },
        ],
      },
      createLineParser(),
    );
    expect(mapped.entries).toHaveLength(fromLog.length);
    mapped.entries.forEach((m, i) =>
      expect(failureIdentity(PROXY, failureFields(m.record), m.raw)).toBe(idOf(fromLog[i]!)),
    );
  });

  it('is the same when a Collector parsed the line into fields (a kvlist body), whose text differs', () => {
    const e = fromLog.find((x) => x.record.upstreamHost !== null && x.record.path !== null)!;
    const r = e.record;
    const fields: OtlpKeyValue[] = [
      kv('start_time', r.startTime),
      kv('method', r.method),
      kv('path', r.path),
      kv('protocol', r.protocol),
      kv('response_code', r.responseCode),
      kv('response_flags', r.responseFlags.join(',') || '-'),
      kv('duration', r.duration),
      kv('x_forwarded_for', null),
      kv('request_id', r.requestId),
      kv('authority', r.authority),
      kv('upstream_host', r.upstreamHost),
    ];
    const mapped = mapLogsRequest(
      {
        resourceLogs: [
          { scopeLogs: [{ logRecords: [{ body: { kvlistValue: { values: fields } } }] }] },
        ],
      },
      createLineParser(),
    );
    expect(mapped.problems).toEqual([]);
    const m = mapped.entries[0]!;
    expect(m.raw).not.toBe(e.raw);
    expect(failureIdentity(PROXY, failureFields(m.record), m.raw)).toBe(idOf(e));
  });

  it('tells apart the distinct requests of the fixture, and the same request through two proxies', () => {
    // the docs show one request (same start, id, upstream) as two Istio versions logged it:
    // HTTP/1.1 and HTTP/2 in the protocol field, nothing else differs; that is one request
    const sameRequest = fromLog.filter(
      (e) =>
        e.record.requestId === 'ab7be694-e367-94c5-83d1-086eca996dae' &&
        e.record.upstreamHost === '151.101.193.67:80',
    );
    expect(sameRequest.map((e) => e.record.protocol)).toEqual(['HTTP/1.1', 'HTTP/2']);
    expect(idOf(sameRequest[0]!)).toBe(idOf(sameRequest[1]!));
    const withoutProtocol = new Set(fromLog.map((e) => e.raw.replace(/ HTTP\/[\d.]+"/, '"')));
    expect(new Set(fromLog.map((e) => idOf(e))).size).toBe(withoutProtocol.size);
    const e = fromLog[0]!;
    expect(idOf(e, 'shop/checkout-2')).not.toBe(idOf(e));
  });

  it('tells apart two calls under one forwarded request id (same time and id, another upstream)', () => {
    const [a, b] = fromLog.filter((x) => x.record.requestId === fromLog[0]!.record.requestId);
    expect(a && b).toBeTruthy();
    expect(a!.record.time).toBe(b!.record.time);
    expect(idOf(a!)).not.toBe(idOf(b!));
  });

  it('keeps the text in the key of an untimed record, and compares flags as a set', () => {
    const f = { ...failureFields(fromLog[0]!.record) };
    expect(failureIdentity(PROXY, { ...f, time: null }, 'a')).not.toBe(
      failureIdentity(PROXY, { ...f, time: null }, 'b'),
    );
    expect(failureIdentity(PROXY, f, 'a')).toBe(failureIdentity(PROXY, f, 'b'));
    expect(failureIdentity(PROXY, { ...f, flags: ['UC', 'URX'] }, '')).toBe(
      failureIdentity(PROXY, { ...f, flags: ['URX', 'UC'] }, ''),
    );
  });
});
