/**
 * The server process's receiver (started from instrumentation.ts when a port is set): it
 * attributes and stores into the default context's runtime, and /api/health reads its counters.
 */
import { baseRuntimeFor } from '../runtime/registry';
import { loadOtlpConfig } from './config';
import type { OtlpCounters } from './ingest';
import { startOtlpReceiver, type OtlpReceiver } from './receiver';
import { getSlot, setSlot } from '../runtime/process-state';
import { runtimeTarget } from './target';

/** The process's receiver, or why it could not start (process-state slot `otlp`). */
interface ReceiverSlot {
  receiver: OtlpReceiver | null;
  error: string | null;
}

declare module '../runtime/process-state' {
  interface ProcessSlots {
    otlp: ReceiverSlot;
  }
}

function slot(): ReceiverSlot {
  let s = getSlot('otlp');
  if (!s) {
    s = { receiver: null, error: null };
    setSlot('otlp', s);
  }
  return s;
}

export interface OtlpReceiverStatus {
  grpcPort: number | null;
  httpPort: number | null;
  counters: OtlpCounters | null;
  error: string | null;
}

/** What /api/health shows; null when the receiver is off. */
export function otlpReceiverStatus(): OtlpReceiverStatus | null {
  const { receiver, error } = slot();
  if (!receiver && !error) return null;
  return {
    grpcPort: receiver?.grpcPort ?? null,
    httpPort: receiver?.httpPort ?? null,
    counters: receiver ? { ...receiver.counters } : null,
    error,
  };
}

/** Starts the receiver if MESHDX_OTLP_GRPC_PORT or MESHDX_OTLP_HTTP_PORT is set. */
export async function startConfiguredReceiver(
  log: (m: string) => void = (m) => console.warn(m),
): Promise<void> {
  const s = slot();
  if (s.receiver) return;
  try {
    const config = loadOtlpConfig();
    if (config.grpcPort === null && config.httpPort === null) return;
    let target: ReturnType<typeof runtimeTarget> | null = null;
    let targetOf: unknown = null;
    const receiver = await startOtlpReceiver(config, () => {
      let rt;
      try {
        rt = baseRuntimeFor(null);
      } catch {
        return null;
      }
      if (targetOf !== rt) {
        target = runtimeTarget(rt);
        targetOf = rt;
      }
      return target;
    });
    s.receiver = receiver;
    log(
      `meshdx: OTLP access-log receiver on ${[
        receiver.grpcPort !== null ? `gRPC :${receiver.grpcPort}` : null,
        receiver.httpPort !== null ? `HTTP :${receiver.httpPort}/v1/logs` : null,
      ]
        .filter(Boolean)
        .join(', ')}`,
    );
  } catch (e) {
    s.error = e instanceof Error ? e.message : String(e);
    log(`meshdx: ${s.error}`);
  }
}

/** Stops the process's receiver (server shutdown, tests). */
export async function stopConfiguredReceiver(): Promise<void> {
  const s = slot();
  const r = s.receiver;
  s.receiver = null;
  s.error = null;
  await r?.stop();
}
