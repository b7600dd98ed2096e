/**
 * The receiver over real sockets: what Envoy's OpenTelemetry access logger sends (one record per
 * request, the line as body, no resource attributes) is attributed and stored; malformed bodies,
 * refused senders and senders past the rate get the protocol's own errors and store nothing.
 */
import * as grpc from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeStatus, encodeLogsRequest } from '../../server/otlp/schema';
import type { OtlpReceiver } from '../../server/otlp/receiver';
import type { HistoryStore } from '../../server/store/history-store';
import type { OtlpLogsRequest } from '../../lib/otlp/types';
import { readFailures } from '../../lib/incidents/read-failures';
import {
  grpcExport,
  httpPost,
  MIN,
  receiverOn,
  SEC,
  storeWithPayments,
  T0,
  ucLine,
} from './support';

const open: { r: OtlpReceiver; s: HistoryStore }[] = [];
afterEach(async () => {
  for (const { r, s } of open.splice(0)) {
    await r.stop();
    s.close();
  }
});

async function setup(over: Parameters<typeof receiverOn>[1] = {}, rateClock?: () => number) {
  const s = storeWithPayments();
  const r = await receiverOn(s, over, rateClock);
  open.push({ r, s });
  return { r, s };
}

/** As Envoy sends it with Istio's envoyOtelAls (disable_builtin_labels, no labels). */
function envoyRequest(lines: string[], start = T0): OtlpLogsRequest {
  return {
    resourceLogs: [
      {
        resource: { attributes: [] },
        scopeLogs: [
          {
            logRecords: lines.map((body, i) => ({
              timeUnixNano: `${start + i}000000`,
              body: { stringValue: body },
              attributes: [
                { key: 'pod', value: { stringValue: 'checkout-1' } },
                { key: 'namespace', value: { stringValue: 'shop' } },
              ],
            })),
          },
        ],
      },
    ],
  };
}

const window = { fromMs: T0 - MIN, toMs: T0 + 30 * MIN };

describe('OTLP receiver', () => {
  it('stores records sent over gRPC attributed to the pod that held the IP then; a record without upstream as unattributable', async () => {
    const { r, s } = await setup();
    const noUpstream = ucLine(T0 + 11 * MIN)
      .replace(`"10.1.0.7:8080"`, '"-"')
      .replace(' UC ', ' NR ');
    const req = envoyRequest([
      ucLine(T0 + 5 * MIN),
      ucLine(T0 + 10 * MIN + 5 * SEC, undefined, 'b'),
      noUpstream,
    ]);
    const { error, response } = await grpcExport(r.grpcPort!, encodeLogsRequest(req));
    expect(error).toBeNull();
    expect(response).not.toBeNull();
    const stored = s.failures.inWindow(window);
    expect(
      stored.map((f) => [
        f.source.read,
        f.source.proxy,
        f.attribution.state,
        f.attribution.pod?.name ?? null,
      ]),
    ).toEqual([
      ['otlp', 'shop/checkout-1', 'running', 'payments-a'],
      ['otlp', 'shop/checkout-1', 'terminating', 'payments-a'],
      ['otlp', 'shop/checkout-1', 'unattributable', null],
    ]);
    expect(r.counters).toMatchObject({ received: 3, stored: 3, dropped: 0, refused: 0 });
    // the same records again are the same records
    await grpcExport(r.grpcPort!, encodeLogsRequest(req));
    expect(s.failures.inWindow(window)).toHaveLength(3);
    expect(r.counters).toMatchObject({ received: 6, stored: 3, duplicates: 3 });
  });

  it("keeps a request read from the client's log and also sent by its proxy (as the line, or as a Collector's fields) once", async () => {
    const { r, s } = await setup();
    const a = ucLine(T0 + 5 * MIN);
    const b = ucLine(T0 + 6 * MIN, undefined, 'b');
    const fromLog = readFailures(
      { source: 'shop/checkout-1', clientPod: 'shop/checkout-1', text: `${a}${b}` },
      'view',
      'uid-checkout-1',
      s.loadHistory(),
    );
    expect(s.failures.record(fromLog.failures, T0 + 7 * MIN).added).toBe(2);
    // the line as Envoy sends it
    expect((await grpcExport(r.grpcPort!, encodeLogsRequest(envoyRequest([a])))).error).toBeNull();
    // the other one as fields a Collector parsed out of the line (Istio's JSON keys)
    const parsed = {
      start_time: new Date(T0 + 6 * MIN).toISOString(),
      method: 'POST',
      path: '/pay',
      protocol: 'HTTP/1.1',
      response_code: 503,
      response_flags: 'UC',
      duration: 7,
      request_id: 'req-b',
      authority: 'payments.shop:8080',
      upstream_host: '10.1.0.7:8080',
      upstream_cluster: 'outbound|8080||payments.shop.svc.cluster.local',
    };
    const kvlist = {
      values: Object.entries(parsed).map(([key, v]) => ({
        key,
        value: typeof v === 'number' ? { intValue: v } : { stringValue: v },
      })),
    };
    const attributes = envoyRequest([a]).resourceLogs![0]!.scopeLogs![0]!.logRecords![0]!
      .attributes;
    const collector: OtlpLogsRequest = {
      resourceLogs: [
        { scopeLogs: [{ logRecords: [{ body: { kvlistValue: kvlist }, attributes }] }] },
      ],
    };
    expect((await grpcExport(r.grpcPort!, encodeLogsRequest(collector))).error).toBeNull();
    expect(r.counters).toMatchObject({ received: 2, stored: 0, duplicates: 2 });
    const stored = s.failures.inWindow(window);
    expect(stored.map((f) => [f.source.read, f.fields.requestId])).toEqual([
      ['view', 'req-a'],
      ['view', 'req-b'],
    ]);
    expect(s.failures.countsInWindow(window)).toMatchObject({ view: 2, otlp: 0 });
  });

  it('takes OTLP/HTTP protobuf and JSON, and says which records were not access logs', async () => {
    const { r, s } = await setup();
    const pb = await httpPost(
      r.httpPort!,
      encodeLogsRequest(envoyRequest([ucLine(T0 + MIN)])),
      'application/x-protobuf',
    );
    expect(pb.status).toBe(200);
    const json = await httpPost(
      r.httpPort!,
      JSON.stringify({
        resourceLogs: [
          {
            scopeLogs: [
              {
                logRecords: [
                  {
                    timeUnixNano: `${T0 + 2 * MIN}000000`,
                    body: { stringValue: ucLine(T0 + 2 * MIN) },
                    traceId: '5b8efff798038103d269b633813fc60c',
                  },
                  { body: { stringValue: 'not an access log at all' } },
                ],
              },
            ],
          },
        ],
      }),
      'application/json',
    );
    expect(json.status).toBe(200);
    expect(JSON.parse(json.body.toString())).toEqual({
      partialSuccess: {
        rejectedLogRecords: '1',
        errorMessage: expect.stringMatching(/^1 of 2 records are not access logs; record 1: /),
      },
    });
    expect(s.failures.inWindow(window).map((f) => f.source.proxy)).toEqual([
      'shop/checkout-1',
      'otlp:127.0.0.1',
    ]);
    expect(r.counters).toMatchObject({ received: 3, stored: 2, unreadable: 1 });
  });

  it('refuses a malformed body with INVALID_ARGUMENT / 400 and a Status, storing nothing', async () => {
    const { r, s } = await setup();
    const g = await grpcExport(r.grpcPort!, Buffer.from([0x0a, 0xff, 0xff, 0x01]));
    expect(g.error?.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(g.error?.details).toMatch(/not an OTLP ExportLogsServiceRequest \(protobuf\)/);
    const h = await httpPost(
      r.httpPort!,
      Buffer.from([0x0a, 0xff, 0xff, 0x01]),
      'application/x-protobuf',
    );
    expect(h.status).toBe(400);
    expect(decodeStatus(h.body)).toMatchObject({
      code: 3,
      message: expect.stringMatching(/protobuf/),
    });
    const j = await httpPost(r.httpPort!, '{"resourceLogs": {"oops": 1}}', 'application/json');
    expect(j.status).toBe(400);
    expect(JSON.parse(j.body.toString())).toMatchObject({
      code: 3,
      message: expect.stringMatching(/resourceLogs/),
    });
    const t = await httpPost(r.httpPort!, 'hello', 'text/plain');
    expect(t.status).toBe(415);
    expect(s.failures.retention().records).toBe(0);
    expect(r.counters).toMatchObject({ invalid: 3, received: 0, stored: 0 });
  });

  it('refuses a request with one undecodable log record among good ones whole, storing none of them', async () => {
    const { r, s } = await setup();
    // the envelope is sound; its second resource holds a log record whose fixed64
    // time_unix_nano (field 1) is cut short: records are decoded as they are stored, and the
    // first one, already written, is taken back
    const bad = Buffer.from([0x0a, 0x06, 0x12, 0x04, 0x12, 0x02, 0x09, 0x01]);
    const body = Buffer.concat([
      encodeLogsRequest(envoyRequest([ucLine(T0 + 5 * MIN)])),
      bad,
      encodeLogsRequest(envoyRequest([ucLine(T0 + 6 * MIN, undefined, 'c')])),
    ]);
    const g = await grpcExport(r.grpcPort!, body);
    expect(g.error?.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(g.error?.details).toMatch(
      /^not an OTLP ExportLogsServiceRequest \(protobuf\): log record 1: /,
    );
    const h = await httpPost(r.httpPort!, body, 'application/x-protobuf');
    expect(h.status).toBe(400);
    expect(decodeStatus(h.body)).toMatchObject({
      code: 3,
      message: expect.stringMatching(/log record 1: /),
    });
    expect(s.failures.retention().records).toBe(0);
    expect(r.counters).toMatchObject({ invalid: 2, received: 0, stored: 0, notFailing: 0 });
    // the records refused were not taken from the rate bound: the same good records pass
    const good = await grpcExport(
      r.grpcPort!,
      encodeLogsRequest(envoyRequest([ucLine(T0 + 5 * MIN)])),
    );
    expect(good.error).toBeNull();
    expect(s.failures.retention().records).toBe(1);
  });

  it('refuses a sender outside the allowed namespaces and CIDRs with PERMISSION_DENIED / 403', async () => {
    const { r, s } = await setup({ namespaces: 'shop', cidrs: '127.0.0.1/32' });
    const body = encodeLogsRequest(envoyRequest([ucLine(T0 + MIN)]));
    const h = await httpPost(r.httpPort!, body, 'application/x-protobuf', '127.0.0.2');
    expect(h.status).toBe(403);
    expect(decodeStatus(h.body)).toMatchObject({
      code: 7,
      message: '127.0.0.2 is no pod meshdx knows and in no allowed CIDR',
    });
    const { r: closed } = await setup({ namespaces: 'shop', cidrs: '10.0.0.0/8' });
    const g = await grpcExport(closed.grpcPort!, body);
    expect(g.error?.code).toBe(grpc.status.PERMISSION_DENIED);
    expect(s.failures.retention().records).toBe(0);
    expect(r.counters).toMatchObject({ refused: 1, stored: 0 });
  });

  it('past the rate bound drops and counts, answering RESOURCE_EXHAUSTED / 429 with when to retry', async () => {
    // the bucket's clock stands still: no refill between the requests, however slow the machine
    const { r, s } = await setup({ recordsPerSecond: 5, burst: 3 }, () => 0);
    const body = (n: number, from: number) =>
      encodeLogsRequest(
        envoyRequest(
          Array.from({ length: n }, (_, i) => ucLine(from + i * SEC, undefined, `${from}-${i}`)),
        ),
      );
    expect((await grpcExport(r.grpcPort!, body(3, T0))).error).toBeNull();
    const g = await grpcExport(r.grpcPort!, body(4, T0 + MIN));
    expect(g.error?.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    const details = g.error?.metadata.get('grpc-status-details-bin')[0];
    expect(decodeStatus(details as Buffer).details).toEqual([
      expect.objectContaining({ type_url: 'type.googleapis.com/google.rpc.RetryInfo' }),
    ]);
    const h = await httpPost(r.httpPort!, body(2, T0 + 2 * MIN), 'application/x-protobuf');
    expect(h.status).toBe(429);
    expect(Number(h.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(s.failures.retention().records).toBe(3);
    expect(r.counters).toMatchObject({ received: 3, stored: 3, dropped: 6 });
  });
});
