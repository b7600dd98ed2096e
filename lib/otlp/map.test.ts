import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLineParser, parseAccessLog } from '../accesslog/parser';
import { countLogRecords, mapLogsRequest } from './map';
import type { OtlpLogRecord, OtlpLogsRequest } from './types';

const FIXTURE = fs.readFileSync(
  path.resolve(
    __dirname,
    '../../../shared/fixtures/access_logs/istio-io-docs_text_multi-version.log',
  ),
  'utf8',
);
const LINES = FIXTURE.split('\n').filter((l) => l.trim() !== '');

/** A UC 503 in Istio's default TEXT format (1.9+), as Envoy's logger puts it in the body. */
const UC_503 =
  '[2024-03-05T10:00:01.250Z] "GET /cart HTTP/1.1" 503 UC upstream_reset_before_response_started{connection_termination} - "-" 0 95 12 - "-" "curl/8.5.0" "5a1c2c9e-61d4-9b8e-a3b1-0c1de2f3a4b5" "cart.shop:8080" "10.1.2.3:8080" outbound|8080||cart.shop.svc.cluster.local 10.1.9.9:41000 10.96.0.20:8080 10.1.9.9:52000 - default\n';

function request(
  records: OtlpLogRecord[],
  resource: OtlpLogsRequest['resourceLogs'] = [],
): OtlpLogsRequest {
  return { resourceLogs: [...(resource ?? []), { scopeLogs: [{ logRecords: records }] }] };
}

describe('mapLogsRequest', () => {
  it('reads every line of the real access-log fixture sent as Envoy sends it (body = the line) like the log parser does', () => {
    const mapped = mapLogsRequest(
      request(LINES.map((l) => ({ timeUnixNano: '0', body: { stringValue: `${l}\n` } }))),
      createLineParser(),
    );
    const direct = parseAccessLog(LINES.join('\n'));
    expect(mapped.received).toBe(LINES.length);
    expect(mapped.problems).toEqual([]);
    expect(mapped.entries).toHaveLength(direct.filter((r) => r.kind === 'record').length);
    mapped.entries.forEach((e, i) => {
      const d = direct[i];
      expect(d?.kind).toBe('record');
      if (d?.kind !== 'record') return;
      expect(e.raw).toBe(LINES[i]);
      expect(e.record.upstreamHost).toBe(d.record.upstreamHost);
      expect(e.record.responseCode).toBe(d.record.responseCode);
      expect(e.record.time).toBe(d.record.time);
    });
  });

  it('keeps the failing request of the default format, its upstream host and flags', () => {
    const m = mapLogsRequest(
      request([{ timeUnixNano: '1709632801250000000', body: { stringValue: UC_503 } }]),
      createLineParser(),
    );
    expect(m.problems).toEqual([]);
    const r = m.entries[0]!.record;
    expect(r.responseCode).toBe(503);
    expect(r.responseFlags).toEqual(['UC']);
    expect(r.upstreamHost).toBe('10.1.2.3:8080');
    expect(r.time).toBe(Date.parse('2024-03-05T10:00:01.250Z'));
    expect(m.entries[0]!.pod).toBeNull();
  });

  it('takes the request time from time_unix_nano when the body has none, and the pod from Istio logFormat labels', () => {
    const body = UC_503.replace('[2024-03-05T10:00:01.250Z] ', '');
    const m = mapLogsRequest(
      request([
        {
          timeUnixNano: '1709632801250000000',
          body: { stringValue: body },
          attributes: [
            { key: 'pod', value: { stringValue: 'web-7f9c-abcde' } },
            { key: 'namespace', value: { stringValue: 'shop' } },
          ],
        },
      ]),
      createLineParser(),
    );
    expect(m.problems).toEqual([]);
    expect(m.entries[0]!.record.time).toBe(1709632801250);
    expect(m.entries[0]!.pod).toEqual({ namespace: 'shop', name: 'web-7f9c-abcde' });
  });

  it('reads a kvlist body (a Collector that parsed the line) like Istio JSON, and names the pod from k8s resource attributes', () => {
    const m = mapLogsRequest(
      request(
        [],
        [
          {
            resource: {
              attributes: [
                { key: 'k8s.namespace.name', value: { stringValue: 'shop' } },
                { key: 'k8s.pod.name', value: { stringValue: 'web-1' } },
              ],
            },
            scopeLogs: [
              {
                logRecords: [
                  {
                    body: {
                      kvlistValue: {
                        values: [
                          { key: 'start_time', value: { stringValue: '2024-03-05T10:00:01.250Z' } },
                          { key: 'response_code', value: { intValue: '503' } },
                          { key: 'response_flags', value: { stringValue: 'UF,URX' } },
                          { key: 'upstream_host', value: { stringValue: '10.1.2.3:8080' } },
                        ],
                      },
                    },
                  },
                ],
              },
            ],
          },
        ],
      ),
      createLineParser(),
    );
    expect(m.problems).toEqual([]);
    const e = m.entries[0]!;
    expect(e.record.responseCode).toBe(503);
    expect(e.record.responseFlags).toEqual(['UF', 'URX']);
    expect(e.pod).toEqual({ namespace: 'shop', name: 'web-1' });
  });

  it('names records that are not access logs, with their index, instead of dropping them', () => {
    const m = mapLogsRequest(
      request([
        { body: { stringValue: UC_503 } },
        {
          body: {
            stringValue: '2024-03-05T10:00:01.250Z\twarning\tenvoy config\tsomething happened',
          },
        },
        { body: { boolValue: true } },
        {},
      ]),
      createLineParser(),
    );
    expect(m.received).toBe(4);
    expect(m.entries).toHaveLength(1);
    expect(m.problems.map((p) => p.index)).toEqual([1, 2, 3]);
    expect(m.problems[2]!.reason).toMatch(/no body/);
  });

  it('counts records across resources and scopes', () => {
    const req: OtlpLogsRequest = {
      resourceLogs: [
        { scopeLogs: [{ logRecords: [{}, {}] }, { logRecords: [{}] }] },
        { scopeLogs: [] },
        {},
      ],
    };
    expect(countLogRecords(req)).toBe(3);
  });
});
