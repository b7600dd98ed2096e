/**
 * The OTLP access-log receiver: gRPC and/or HTTP listeners, each on its own port (never the
 * UI's), feeding one OtlpIngest. Off unless a port is set.
 */
import type { OtlpConfig } from './config';
import { startGrpcReceiver, type GrpcListener } from './grpc';
import { startHttpReceiver, type HttpListener } from './http';
import { OtlpIngest, type IngestTarget, type OtlpCounters } from './ingest';

export interface OtlpReceiver {
  grpcPort: number | null;
  httpPort: number | null;
  counters: Readonly<OtlpCounters>;
  stop(): Promise<void>;
}

/**
 * `rateClock`: the monotonic ms the rate bound refills by (performance.now by default; a test
 * that proves the bound holds it still, so how fast the machine is cannot refill the bucket).
 */
export async function startOtlpReceiver(
  config: OtlpConfig,
  target: () => IngestTarget | null,
  rateClock?: () => number,
): Promise<OtlpReceiver> {
  const ingest = new OtlpIngest(
    target,
    config.allow,
    { recordsPerSecond: config.recordsPerSecond, burst: config.burst },
    rateClock,
  );
  let grpc: GrpcListener | null = null;
  let http: HttpListener | null = null;
  try {
    if (config.grpcPort !== null)
      grpc = await startGrpcReceiver(ingest, config.host, config.grpcPort, config.maxBodyBytes);
    if (config.httpPort !== null)
      http = await startHttpReceiver(ingest, config.host, config.httpPort, config.maxBodyBytes);
  } catch (e) {
    await grpc?.stop();
    throw e;
  }
  return {
    grpcPort: grpc?.port ?? null,
    httpPort: http?.port ?? null,
    counters: ingest.counters,
    stop: async () => {
      await Promise.all([grpc?.stop(), http?.stop()]);
    },
  };
}
