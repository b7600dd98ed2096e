/**
 * The official OpenTelemetry JS SDK's log exporters (OTLP/gRPC, OTLP/HTTP protobuf and JSON),
 * a client nobody here wrote, send access-log records to the receiver meshdx starts from its
 * settings (MESHDX_OTLP_*_PORT) over the simulated cluster; the records then appear on
 * /api/incidents attributed to the pod that held the upstream IP, and /api/health counts them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OTLPLogExporter as GrpcExporter } from '@opentelemetry/exporter-logs-otlp-grpc';
import { OTLPLogExporter as JsonExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPLogExporter as ProtoExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import {
  LoggerProvider,
  SimpleLogRecordProcessor,
  type LogRecordExporter,
} from '@opentelemetry/sdk-logs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as healthGet } from '../../app/api/health/route';
import { GET as incidentsGet } from '../../app/api/incidents/route';
import { IncidentsViewSchema } from '../../lib/api/incidents';
import type { Pod } from '../../lib/kube/types';
import { startConfiguredReceiver, stopConfiguredReceiver } from '../../server/otlp';
import { resetRegistry, runningRuntimes } from '../../server/runtime/registry';
import { startSimulator, type RunningSimulator } from '../../server/sim/index';
import { ucLine } from './support';
import { freePort } from '../../test-support/ports';

const saved = { ...process.env };
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-otlp-sdk-'));
const START = new Date('2026-11-01T12:00:00Z');
let sim: RunningSimulator;
let grpcPort = 0;
let httpPort = 0;

beforeAll(async () => {
  sim = await startSimulator({ scenario: 'phantom-503', port: 0, clock: { fixed: START } });
  const kubeconfig = path.join(dir, 'kubeconfig');
  fs.writeFileSync(kubeconfig, sim.kubeconfigYaml, { mode: 0o600 });
  grpcPort = await freePort();
  httpPort = await freePort();
  process.env = {
    ...saved,
    MESHDX_DB: ':memory:',
    MESHDX_KUBECONFIG: kubeconfig,
    MESHDX_CLOCK: 'objects',
    MESHDX_OTLP_GRPC_PORT: String(grpcPort),
    MESHDX_OTLP_HTTP_PORT: String(httpPort),
    MESHDX_OTLP_HOST: '127.0.0.1',
    // the exporters run on this host, as a Collector would: admitted by address
    MESHDX_OTLP_CIDRS: '127.0.0.1/32',
  };
  delete process.env.MESHDX_CONTEXT;
  delete process.env.MESHDX_AUTH;
  resetRegistry();
});

afterAll(async () => {
  await stopConfiguredReceiver();
  resetRegistry();
  process.env = { ...saved };
  await sim?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function send(
  exporter: LogRecordExporter,
  body: string,
  at: number,
  client: string,
): Promise<void> {
  const provider = new LoggerProvider({ processors: [new SimpleLogRecordProcessor({ exporter })] });
  provider.getLogger('envoy').emit({
    timestamp: at,
    body,
    attributes: { pod: client, namespace: 'shop' },
  });
  await provider.forceFlush();
  await provider.shutdown();
}

describe('records sent by the OpenTelemetry SDK exporters', () => {
  it('appear on /api/incidents attributed, and /api/health counts them', async () => {
    const from = new Date(START.getTime() - 10 * 60_000).toISOString();
    const to = new Date(START.getTime() + 60_000).toISOString();
    const url = `http://meshdx.test/api/incidents?namespace=shop&from=${from}&to=${to}`;
    expect((await incidentsGet(new Request(url))).status).toBe(200);
    const [rt] = runningRuntimes();
    if (!rt) throw new Error('the route started no runtime');
    await rt.recorder.ready;
    const logs: string[] = [];
    await startConfiguredReceiver((m) => logs.push(m));
    expect(logs).toEqual([
      `meshdx: OTLP access-log receiver on gRPC :${grpcPort}, HTTP :${httpPort}/v1/logs`,
    ]);

    const pods = sim.store.list('pods') as Pod[];
    const payments = pods.find((p) => p.metadata.labels?.app === 'payments' && p.status?.podIP);
    const client = pods.find((p) => p.metadata.labels?.app === 'checkout');
    if (!payments?.status?.podIP || !client)
      throw new Error('the phantom-503 story has no payments or checkout pod');
    const ip = payments.status.podIP;
    const at = START.getTime() - 60_000;
    await send(
      new GrpcExporter({ url: `http://127.0.0.1:${grpcPort}` }),
      ucLine(at, ip, 'sdk-grpc'),
      at,
      client.metadata.name,
    );
    await send(
      new ProtoExporter({ url: `http://127.0.0.1:${httpPort}/v1/logs` }),
      ucLine(at + 1000, ip, 'sdk-proto'),
      at + 1000,
      client.metadata.name,
    );
    await send(
      new JsonExporter({ url: `http://127.0.0.1:${httpPort}/v1/logs` }),
      ucLine(at + 2000, ip, 'sdk-json'),
      at + 2000,
      client.metadata.name,
    );

    const res = await incidentsGet(new Request(url));
    expect(res.status).toBe(200);
    const view = IncidentsViewSchema.parse(await res.json());
    expect(view.memory?.fromReceiver).toBe(3);
    const times = [at, at + 1000, at + 2000].map((t) => new Date(t).toISOString());
    const sent = view.requests.filter((r) => r.time !== null && times.includes(r.time));
    expect(
      sent.map((r) => [r.time, r.source, r.code, r.upstreamIp, r.pod?.name, r.state]).sort(),
    ).toEqual(
      times.map((t) => [
        t,
        `shop/${client.metadata.name}`,
        503,
        ip,
        payments.metadata.name,
        'live',
      ]),
    );

    const health = (await (
      await healthGet(new Request('http://meshdx.test/api/health'))
    ).json()) as {
      otlp: { grpcPort: number; httpPort: number; counters: Record<string, number> } | null;
    };
    expect(health.otlp).toMatchObject({
      grpcPort,
      httpPort,
      counters: { received: 3, stored: 3, dropped: 0, refused: 0 },
    });
  }, 60_000);
});
