/**
 * The simulated sidecars' `envoy.access_loggers.open_telemetry`: when the MeshConfig declares
 * an `envoyOtelAls` provider and a Telemetry enables it for a pod, each request the pod's proxy
 * logs and the filter keeps is sent over OTLP/gRPC (LogsService/Export) to the provider's
 * service endpoints, shaped as Istio configures Envoy's logger: `disable_builtin_labels`, so no
 * resource attributes; one LogRecord per request with `time_unix_nano` the request's start,
 * the body Istio's default TEXT line, and the provider's `logFormat.labels` as attributes.
 * Records are buffered per proxy and flushed every second, as Envoy's logger buffers.
 */
import * as grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import {
  COMMON_PROTO,
  LOGS_PROTO,
  LOGS_SERVICE_PROTO,
  RESOURCE_PROTO,
} from '../../otlp/proto/opentelemetry';
import { textLine, type AccessEntry } from '../world/build/accesslog';
import type { SimStore } from '../world/types';
import { podKey } from '../../../lib/refs/pod-ref';
import {
  otelProviders,
  podAccessLogging,
  providerEndpoint,
  type OtelProvider,
  type PodAccessLogging,
} from './config';

function requestType(): protobuf.Type {
  const root = new protobuf.Root();
  for (const text of [COMMON_PROTO, RESOURCE_PROTO, LOGS_PROTO, LOGS_SERVICE_PROTO])
    protobuf.parse(text, root);
  root.resolveAll();
  return root.lookupType('opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest');
}

export interface SenderPod {
  namespace: string;
  name: string;
  ip: string;
  labels: Record<string, string>;
}

export interface SenderStats {
  /** Records the receiver acknowledged. */
  sent: number;
  /** Records in exports that failed (Envoy drops them too). */
  failed: number;
  /** Records the filter kept but no endpoint of the provider's service was known for. */
  noEndpoint: number;
  lastError: string | null;
}

export interface OtlpAccessSender {
  onAccess(pod: SenderPod, e: AccessEntry): void;
  readonly stats: SenderStats;
  /** Sends what is buffered now; resolves when the exports are answered. */
  flush(): Promise<void>;
  stop(): Promise<void>;
}

interface Pending {
  target: string;
  logName: string;
  records: Record<string, unknown>[];
}

const MAX_BATCH = 500;

/** A label's Envoy format string, for the operators a simulated proxy knows. */
function expand(format: string, pod: SenderPod, e: AccessEntry): string {
  return format.replace(
    /%([A-Z_]+)(?:\(([^)]*)\))?%/g,
    (_, op: string, arg: string | undefined) => {
      if (op === 'ENVIRONMENT') {
        if (arg === 'POD_NAME') return pod.name;
        if (arg === 'POD_NAMESPACE') return pod.namespace;
        if (arg === 'INSTANCE_IP') return pod.ip;
        return '-';
      }
      if (op === 'RESPONSE_CODE') return String(e.code);
      if (op === 'RESPONSE_FLAGS') return e.flags;
      if (op === 'UPSTREAM_HOST') return e.upstreamHost ?? '-';
      if (op === 'REQ' && arg?.toUpperCase() === 'X-REQUEST-ID') return e.requestId;
      return '-';
    },
  );
}

export function createOtlpSender(
  store: SimStore,
  opts: { flushMs?: number } = {},
): OtlpAccessSender {
  const Request = requestType();
  const stats: SenderStats = { sent: 0, failed: 0, noEndpoint: 0, lastError: null };
  let providers: OtelProvider[] | null = null;
  const perPod = new Map<string, PodAccessLogging[]>();
  const endpoints = new Map<string, string | null>();
  const pending = new Map<string, Pending>();
  const clients = new Map<string, grpc.Client>();
  const inFlight = new Set<Promise<void>>();
  const Client = grpc.makeGenericClientConstructor({}, 'LogsService');

  const unsubscribe = store.subscribe?.((c) => {
    if (c.kind === 'configmaps' || c.kind === 'telemetries') {
      providers = null;
      perPod.clear();
    }
    if (c.kind === 'configmaps' || c.kind === 'services' || c.kind === 'endpointslices')
      endpoints.clear();
  });

  const loggingOf = (pod: SenderPod): PodAccessLogging[] => {
    const key = podKey(pod.namespace, pod.name);
    let l = perPod.get(key);
    if (!l) {
      providers ??= otelProviders(store);
      l = providers.length ? podAccessLogging(store, pod, providers) : [];
      perPod.set(key, l);
    }
    return l;
  };

  const endpointOf = (p: OtelProvider): string | null => {
    let t = endpoints.get(p.name);
    if (t === undefined) {
      const ep = providerEndpoint(store, p);
      t = ep ? `${ep.host.includes(':') ? `[${ep.host}]` : ep.host}:${ep.port}` : null;
      endpoints.set(p.name, t);
    }
    return t;
  };

  const send = (batch: Pending): void => {
    const body = Request.encode(
      Request.fromObject({
        resourceLogs: [
          { resource: { attributes: [] }, scopeLogs: [{ logRecords: batch.records }] },
        ],
      }),
    ).finish();
    let client = clients.get(batch.target);
    if (!client) {
      client = new Client(batch.target, grpc.credentials.createInsecure());
      clients.set(batch.target, client);
    }
    const n = batch.records.length;
    const p = new Promise<void>((resolve) => {
      client.makeUnaryRequest<Uint8Array, Buffer>(
        '/opentelemetry.proto.collector.logs.v1.LogsService/Export',
        (b) => Buffer.from(b),
        (b) => b,
        body,
        { deadline: Date.now() + 5000 },
        (err) => {
          if (err) {
            stats.failed += n;
            stats.lastError = `${batch.target}: ${err.message}`;
          } else stats.sent += n;
          resolve();
        },
      );
    });
    inFlight.add(p);
    void p.then(() => inFlight.delete(p));
  };

  const flushNow = (): void => {
    for (const batch of pending.values()) if (batch.records.length) send(batch);
    pending.clear();
  };

  const timer = setInterval(flushNow, opts.flushMs ?? 1000);
  timer.unref();

  return {
    stats,
    onAccess(pod, e) {
      for (const { provider, filter } of loggingOf(pod)) {
        if (!filter({ code: e.code })) continue;
        const target = endpointOf(provider);
        if (!target) {
          stats.noEndpoint++;
          continue;
        }
        const key = `${target} ${podKey(pod.namespace, pod.name)} ${provider.name}`;
        let batch = pending.get(key);
        if (!batch) {
          batch = { target, logName: provider.logName, records: [] };
          pending.set(key, batch);
        }
        const attributes = Object.entries(provider.labels).map(([k, v]) => ({
          key: k,
          value: { stringValue: expand(v, pod, e) },
        }));
        batch.records.push({
          timeUnixNano: (BigInt(e.at) * 1_000_000n).toString(),
          body: { stringValue: `${textLine(e)}\n` },
          attributes,
        });
        if (batch.records.length >= MAX_BATCH) {
          send(batch);
          pending.delete(key);
        }
      }
    },
    async flush() {
      flushNow();
      await Promise.all([...inFlight]);
    },
    async stop() {
      clearInterval(timer);
      unsubscribe?.();
      flushNow();
      await Promise.all([...inFlight]);
      for (const c of clients.values()) c.close();
      clients.clear();
    },
  };
}
