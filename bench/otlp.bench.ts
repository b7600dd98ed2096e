import * as grpc from '@grpc/grpc-js';
import fs from 'node:fs';
import type { OtlpLogsRequest } from '../lib/otlp/types';
import { encodeLogsRequest } from '../server/otlp/schema';
import { cpuMs, startNextServer, waitForWatches } from './next-server';
import { freePort } from '../test-support/ports';
import { startSimProcess, type BenchResult } from './support';

/**
 * The OTLP access-log receiver of the production server (`next start`, run `next build` first)
 * over a simulated cluster of 5,000 pods: 200,000 failing requests to the cluster's pod IPs are
 * sent over OTLP/gRPC in requests of 500 records (as a Collector batches), 4 requests in flight,
 * each attributed to the pod that held its upstream IP and stored. Records/s is from the first
 * send to the last answer, checked against /api/health's stored count; the RSS delta is the
 * server's highest resident set while ingesting over its resident set when idle (listed, the
 * receiver up). Targets: at least 20,000 records/s, under 100 MB.
 */
const RECORDS = Number(process.env.MESHDX_BENCH_OTLP_RECORDS ?? 200_000);
const PER_REQUEST = 500;
const IN_FLIGHT = 4;
const T0 = Date.parse('2026-11-01T11:00:00Z');

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? NaN) / 1024;
}

interface Health {
  otlp: {
    counters: { received: number; stored: number; dropped: number; refused: number } | null;
  } | null;
}

async function health(url: string): Promise<Health> {
  return (await (await fetch(`${url}/api/health`)).json()) as Health;
}

/** The requests, encoded before the clock starts (the sender then only writes them). */
function requests(ips: string[]): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < RECORDS; i += PER_REQUEST) {
    const logRecords = [];
    for (let j = i; j < Math.min(RECORDS, i + PER_REQUEST); j++) {
      const at = T0 + j * 10;
      const ip = ips[j % ips.length];
      const line = `[${new Date(at).toISOString()}] "POST /pay/${j} HTTP/1.1" 503 UC upstream_reset_before_response_started{connection_termination} - "-" 120 95 7 - "-" "client/1.0" "${j.toString(16)}-rid" "payments.shop:8080" "${ip}:8080" outbound|8080||payments.shop.svc.cluster.local 10.1.9.9:41000 10.96.0.20:8080 10.1.9.9:52000 - default\n`;
      logRecords.push({
        timeUnixNano: `${at}000000`,
        body: { stringValue: line },
        attributes: [
          { key: 'pod', value: { stringValue: `client-${j % 50}` } },
          { key: 'namespace', value: { stringValue: 'bench' } },
        ],
      });
    }
    const req: OtlpLogsRequest = { resourceLogs: [{ resource: {}, scopeLogs: [{ logRecords }] }] };
    const encoded = encodeLogsRequest(req);
    out.push(Buffer.from(encoded.buffer, encoded.byteOffset, encoded.byteLength));
  }
  return out;
}

export async function run(): Promise<BenchResult[]> {
  const sim = await startSimProcess('scale', { pods: '5000', services: '500' });
  const grpcPort = await freePort();
  const server = await startNextServer(sim.kubeconfig, {
    MESHDX_OTLP_GRPC_PORT: String(grpcPort),
    MESHDX_OTLP_HOST: '127.0.0.1',
    MESHDX_OTLP_CIDRS: '127.0.0.1/32',
    MESHDX_OTLP_RATE: '10000000',
    MESHDX_OTLP_BURST: '10000000',
  });
  const client = new (grpc.makeGenericClientConstructor({}, 'LogsService'))(
    `127.0.0.1:${grpcPort}`,
    grpc.credentials.createInsecure(),
  );
  try {
    await waitForWatches(server.url);
    const pods = (await (await fetch(`${sim.url}/api/v1/pods`)).json()) as {
      items: { status?: { podIP?: string } }[];
    };
    const ips = pods.items.flatMap((p) => (p.status?.podIP ? [p.status.podIP] : []));
    if (ips.length < 1000) throw new Error(`the simulated cluster has ${ips.length} pod IPs`);
    const bodies = requests(ips);
    const h0 = await health(server.url);
    if (!h0.otlp?.counters) throw new Error(`the receiver is not up: ${JSON.stringify(h0.otlp)}`);
    // idle: listed, receiver up, nothing sent yet
    await new Promise((r) => setTimeout(r, 2000));
    const idle = rssMb(server.pid);
    let peak = idle;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(server.pid));
    }, 25);

    const exportOne = (body: Buffer) =>
      new Promise<void>((resolve, reject) =>
        client.makeUnaryRequest<Buffer, Buffer>(
          '/opentelemetry.proto.collector.logs.v1.LogsService/Export',
          // sent as encoded: no copy of the message per request on the sender's side
          (b) => b,
          (b) => b,
          body,
          (err) => (err ? reject(new Error(`Export: ${err.message}`)) : resolve()),
        ),
      );
    const cpu0 = cpuMs(server.pid);
    const senderCpu0 = process.cpuUsage();
    const t = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < bodies.length) {
          const body = bodies[next++];
          if (body) await exportOne(body);
        }
      }),
    );
    const seconds = (performance.now() - t) / 1000;
    const cpuSeconds = (cpuMs(server.pid) - cpu0) / 1000;
    const senderCpu = process.cpuUsage(senderCpu0);
    // the sender shares the machine's cores with the server: its share is said beside the figure
    const senderSeconds = (senderCpu.user + senderCpu.system) / 1e6;
    clearInterval(sampler);
    peak = Math.max(peak, rssMb(server.pid));
    const c = (await health(server.url)).otlp?.counters;
    if (!c || c.stored !== RECORDS || c.dropped !== 0 || c.refused !== 0)
      throw new Error(`expected ${RECORDS} records stored, /api/health says ${JSON.stringify(c)}`);
    return [
      {
        name: 'memory.otlp-ingest-records-per-s',
        value: Math.round(RECORDS / seconds),
        unit: 'records/s',
        min: 20_000,
        note: `${RECORDS.toLocaleString('en-US')} records over OTLP/gRPC in requests of ${PER_REQUEST}, ${IN_FLIGHT} in flight, attributed against ${ips.length} pod IPs and stored in ${seconds.toFixed(1)} s; the server used ${cpuSeconds.toFixed(1)} s of CPU (${Math.round(RECORDS / cpuSeconds)} records per CPU-second, ${Math.round((cpuSeconds * 1e6) / RECORDS)} µs per record), the sender ${senderSeconds.toFixed(1)} s`,
      },
      {
        name: 'memory.otlp-peak-rss-delta',
        value: Math.round(peak - idle),
        unit: 'MB',
        target: 100,
        note: `server resident set ${Math.round(idle)} MB idle, ${Math.round(peak)} MB at most while ingesting`,
      },
    ];
  } finally {
    client.close();
    await server.stop();
    await sim.stop();
  }
}
