/** A receiver on free ports over a real in-memory history store (not a test file itself). */
import * as grpc from '@grpc/grpc-js';
import http from 'node:http';
import { parseAllowRule } from '../../lib/otlp/allow';
import type { OtlpConfig } from '../../server/otlp/config';
import type { IngestTarget } from '../../server/otlp/ingest';
import { startOtlpReceiver, type OtlpReceiver } from '../../server/otlp/receiver';
import { openHistoryStore, type HistoryStore } from '../../server/store/history-store';
import { MIN, SEC, T0, makePod, observed } from '../data/store/pods';

export { T0, SEC, MIN };
export const PAYMENTS_IP = '10.1.0.7';

/** A 503 UC in Istio's default TEXT format sent by shop/checkout-1 to `ip` at `at`. */
export function ucLine(at: number, ip = PAYMENTS_IP, id = 'a'): string {
  return `[${new Date(at).toISOString()}] "POST /pay HTTP/1.1" 503 UC upstream_reset_before_response_started{connection_termination} - "-" 120 95 7 - "-" "checkout/1.0" "req-${id}" "payments.shop:8080" "${ip}:8080" outbound|8080||payments.shop.svc.cluster.local 10.1.9.9:41000 10.96.0.20:8080 10.1.9.9:52000 - default\n`;
}

/** payments-a held PAYMENTS_IP from T0 until its deletion at T0+10m (gone 31 s later). */
export function storeWithPayments(): HistoryStore {
  const store = openHistoryStore(':memory:');
  store.recordPodEvent(observed('ADDED', makePod({ name: 'payments-a', ip: PAYMENTS_IP }), T0));
  const deleting = makePod({ name: 'payments-a', ip: PAYMENTS_IP, deletionAt: T0 + 10 * MIN });
  store.recordPodEvent(observed('MODIFIED', deleting, T0 + 10 * MIN));
  store.recordPodEvent(observed('DELETED', deleting, T0 + 10 * MIN + 31 * SEC));
  return store;
}

export function config(
  over: Partial<OtlpConfig> & { namespaces?: string; cidrs?: string } = {},
): OtlpConfig {
  const { namespaces, cidrs, ...rest } = over;
  return {
    grpcPort: 0,
    httpPort: 0,
    host: '127.0.0.1',
    allow: parseAllowRule(namespaces ?? 'meshed', cidrs ?? '127.0.0.1/32'),
    recordsPerSecond: 100_000,
    burst: 100_000,
    maxBodyBytes: 4 * 1024 * 1024,
    ...rest,
  };
}

export function targetOf(store: HistoryStore): IngestTarget {
  return {
    podByIp: () => null,
    history: () => store.loadHistory(),
    failures: store.failures,
    now: () => T0 + 20 * MIN,
  };
}

/** `rateClock`: see startOtlpReceiver (a still one for tests of the rate bound). */
export async function receiverOn(
  store: HistoryStore,
  over: Parameters<typeof config>[0] = {},
  rateClock?: () => number,
): Promise<OtlpReceiver> {
  return startOtlpReceiver(config(over), () => targetOf(store), rateClock);
}

/** LogsService/Export with raw bytes, through grpc-js' own client. */
export function grpcExport(
  port: number,
  body: Uint8Array,
): Promise<{ error: grpc.ServiceError | null; response: Buffer | null }> {
  const Client = grpc.makeGenericClientConstructor({}, 'LogsService');
  const client = new Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  return new Promise((resolve) => {
    client.makeUnaryRequest<Uint8Array, Buffer>(
      '/opentelemetry.proto.collector.logs.v1.LogsService/Export',
      (b) => Buffer.from(b),
      (b) => b,
      body,
      (error, response) => {
        client.close();
        resolve({ error: error ?? null, response: response ?? null });
      },
    );
  });
}

/** POST /v1/logs from a chosen local address. */
export function httpPost(
  port: number,
  body: Uint8Array | string,
  contentType: string,
  localAddress = '127.0.0.1',
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/v1/logs',
        method: 'POST',
        localAddress,
        headers: { 'content-type': contentType },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
