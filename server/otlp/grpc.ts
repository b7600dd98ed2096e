/**
 * OTLP/gRPC: `opentelemetry.proto.collector.logs.v1.LogsService/Export` on its own port, the
 * protocol Envoy's OpenTelemetry access logger speaks. The message bytes are decoded here (not
 * by grpc-js) so that a malformed one is INVALID_ARGUMENT, as OTLP asks, not INTERNAL.
 */
import * as grpc from '@grpc/grpc-js';
import type { ExportOutcome, OtlpIngest } from './ingest';
import { peerIp } from './peer';
import { checkWireFormat } from './wire';
import {
  decodeLogsRequest,
  encodeLogsResponse,
  encodeStatus,
  OTLP_LOGS_SERVICE,
  OtlpDecodeError,
} from './schema';

const exportMethod: grpc.MethodDefinition<Buffer, Uint8Array> = {
  path: `/${OTLP_LOGS_SERVICE}/Export`,
  requestStream: false,
  responseStream: false,
  requestSerialize: (b: Buffer) => b,
  requestDeserialize: (b: Buffer) => b,
  responseSerialize: (b: Uint8Array) => Buffer.from(b),
  responseDeserialize: (b: Buffer) => b,
};

function refusal(
  code: grpc.status,
  message: string,
  retryAfterMs?: number,
): Partial<grpc.StatusObject> {
  const metadata = new grpc.Metadata();
  metadata.set(
    'grpc-status-details-bin',
    Buffer.from(encodeStatus({ code, message, retryAfterMs })),
  );
  return { code, details: message, metadata };
}

function answer(outcome: ExportOutcome, cb: grpc.sendUnaryData<Uint8Array>): void {
  switch (outcome.kind) {
    case 'ok':
      cb(null, encodeLogsResponse(outcome.partial));
      return;
    case 'denied':
      cb(refusal(grpc.status.PERMISSION_DENIED, outcome.reason));
      return;
    case 'exhausted':
      cb(refusal(grpc.status.RESOURCE_EXHAUSTED, outcome.reason, outcome.retryAfterMs));
      return;
    case 'invalid':
      cb(refusal(grpc.status.INVALID_ARGUMENT, outcome.reason));
      return;
    case 'failed':
      cb(refusal(grpc.status.UNAVAILABLE, outcome.reason, 5000));
  }
}

export interface GrpcListener {
  port: number;
  stop(): Promise<void>;
}

export async function startGrpcReceiver(
  ingest: OtlpIngest,
  host: string,
  port: number,
  maxBodyBytes: number,
): Promise<GrpcListener> {
  const server = new grpc.Server({
    'grpc.max_receive_message_length': maxBodyBytes,
  });
  const handler: grpc.handleUnaryCall<Buffer, Uint8Array> = (call, cb) => {
    const ip = peerIp(call.getPeer());
    let request;
    try {
      checkWireFormat(call.request);
      request = decodeLogsRequest(call.request);
    } catch (e) {
      const reason = e instanceof OtlpDecodeError ? e.message : String(e);
      ingest.invalid(reason);
      cb(refusal(grpc.status.INVALID_ARGUMENT, reason));
      return;
    }
    answer(ingest.export(ip, request), cb);
  };
  server.addService({ Export: exportMethod }, { Export: handler });
  const bound = await new Promise<number>((resolve, reject) =>
    server.bindAsync(
      `${host.includes(':') ? `[${host}]` : host}:${port}`,
      grpc.ServerCredentials.createInsecure(),
      (err, p) =>
        err
          ? reject(new Error(`OTLP/gRPC receiver cannot listen on ${host}:${port}: ${err.message}`))
          : resolve(p),
    ),
  );
  return {
    port: bound,
    stop: () =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => server.forceShutdown(), 2000);
        force.unref();
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      }),
  };
}
