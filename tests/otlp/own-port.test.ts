/**
 * The OTLP/HTTP receiver answers every request on its own port in OTLP's shapes (a
 * google.rpc.Status in the request's encoding), in a process whose dashboard server has its
 * guards installed (instrumentation.ts does both): the dashboard's Host check, its method table
 * and its body bound are not the receiver's. And a protobuf the wire format does not allow (a
 * varint longer than 10 bytes) is a 400, not records.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refuseForbiddenMethods } from '../../server/edge-methods';
import { allowedMethods } from '../../server/security/guard';
import { guardDashboardServer, isDashboardServer } from '../../server/security/dashboard-server';
import { decodeStatus, encodeLogsRequest } from '../../server/otlp/schema';
import type { OtlpReceiver } from '../../server/otlp/receiver';
import type { HistoryStore } from '../../server/store/history-store';
import * as grpc from '@grpc/grpc-js';
import { grpcExport, httpPost, receiverOn, storeWithPayments, T0, ucLine } from './support';

const saved = { ...process.env };
let r: OtlpReceiver;
let s: HistoryStore;

beforeAll(async () => {
  process.env.MESHDX_ALLOWED_HOSTS = '';
  refuseForbiddenMethods(allowedMethods, isDashboardServer);
  guardDashboardServer();
  s = storeWithPayments();
  r = await receiverOn(s);
});
afterAll(async () => {
  process.env = { ...saved };
  await r?.stop();
  s?.close();
});

/** A raw request head (and a few body bytes) to the receiver's port; what comes back. */
function raw(head: string, body = ''): Promise<{ status: number; head: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(r.httpPort as number, '127.0.0.1', () => socket.write(head + body));
    const chunks: Buffer[] = [];
    socket.on('data', (d: Buffer) => {
      chunks.push(d);
      // the answer is complete once its declared body has arrived
      const all = Buffer.concat(chunks);
      const end = all.indexOf('\r\n\r\n');
      const len = /content-length: *(\d+)/i.exec(all.subarray(0, end).toString('latin1'));
      if (end >= 0 && len && all.length >= end + 4 + Number(len[1])) socket.destroy();
    });
    socket.on('close', () => {
      const all = Buffer.concat(chunks);
      const end = all.indexOf('\r\n\r\n');
      const top = all.subarray(0, end).toString('latin1');
      resolve({ status: Number(top.split(' ')[1]), head: top, body: all.subarray(end + 4) });
    });
    socket.on('error', reject);
    socket.setTimeout(5000, () => socket.destroy());
  });
}

const post = (length: number, host: string) =>
  raw(
    `POST /v1/logs HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/x-protobuf\r\nContent-Length: ${length}\r\n\r\n`,
    'abc',
  );

describe('the receiver answers on its own port in its own shapes', () => {
  it("a POST declaring 9 MiB or 1 GiB is the receiver's 413 with a Status, whatever the Host", async () => {
    for (const length of [9 * 1024 * 1024, 1024 * 1024 * 1024])
      for (const host of ['127.0.0.1', 'evil.example', 'collector.observability']) {
        const a = await post(length, host);
        const what = `${length} bytes, Host ${host}`;
        expect(a.status, what).toBe(413);
        expect(a.head.toLowerCase(), what).toContain('content-type: application/x-protobuf');
        expect(decodeStatus(a.body), what).toMatchObject({ code: 3 });
        expect(decodeStatus(a.body).message, what).toContain(`${length} bytes`);
      }
  });

  it("a TRACE is the receiver's own answer, not the dashboard's method table", async () => {
    const a = await raw('TRACE /v1/logs HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    expect(a.status).toBe(405);
    expect(a.body.toString()).not.toContain('METHOD_NOT_ALLOWED');
    expect(a.body.toString()).toContain('only POST');
  });
});

describe('protobuf the wire format does not allow', () => {
  const good = () =>
    Buffer.from(
      encodeLogsRequest({
        resourceLogs: [
          {
            resource: { attributes: [] },
            scopeLogs: [
              {
                logRecords: [
                  { timeUnixNano: `${T0}000000`, body: { stringValue: ucLine(T0).trim() } },
                ],
              },
            ],
          },
        ],
      }),
    );

  it('an 11-byte varint (an unknown field after a valid request) is a 400 INVALID_ARGUMENT', async () => {
    // field 15, wire type 0 (tag 0x78), and a varint of 11 bytes: ten with the continuation bit
    const body = Buffer.concat([good(), Buffer.from([0x78, ...Array(10).fill(0xff), 0x01])]);
    const h = await httpPost(r.httpPort as number, body, 'application/x-protobuf');
    expect(h.status).toBe(400);
    expect(decodeStatus(h.body)).toMatchObject({ code: 3 });
    expect(decodeStatus(h.body).message).toContain('varint');
    // and over gRPC, the same refusal in gRPC's shape
    const g = await grpcExport(r.grpcPort as number, body);
    expect(g.error?.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(g.error?.details).toContain('varint');
  });

  it('an 11-byte varint inside a log record is a 400 as well', async () => {
    // LogRecord field 2 (severity_number, tag 0x10) as an 11-byte varint, nested in the request
    const record = Buffer.from([0x10, ...Array(10).fill(0x80), 0x00]);
    const scope = Buffer.concat([Buffer.from([0x12, record.length]), record]);
    const resource = Buffer.concat([Buffer.from([0x12, scope.length]), scope]);
    const body = Buffer.concat([Buffer.from([0x0a, resource.length]), resource]);
    const h = await httpPost(r.httpPort as number, body, 'application/x-protobuf');
    expect(h.status).toBe(400);
    expect(decodeStatus(h.body).message).toContain('varint');
  });

  it('a 10-byte varint (the longest there is) is still read', async () => {
    const body = Buffer.concat([good(), Buffer.from([0x78, ...Array(9).fill(0xff), 0x01])]);
    const h = await httpPost(r.httpPort as number, body, 'application/x-protobuf');
    expect(h.status).toBe(200);
  });
});
