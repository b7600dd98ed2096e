/**
 * Real senders in the simulator: the phantom-503-otlp scenario's MeshConfig declares an
 * envoyOtelAls provider and its Telemetry enables it for `response.code >= 500`; the simulated
 * checkout sidecars find meshdx's receiver through the provider's Service and send their failing
 * requests over OTLP/gRPC as they happen. meshdx (started from its settings) attributes each to
 * the payments pod that held the IP, as the story's ground truth says.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as incidentsGet } from '../../app/api/incidents/route';
import { IncidentsViewSchema } from '../../lib/api/incidents';
import { startConfiguredReceiver, stopConfiguredReceiver } from '../../server/otlp';
import { runningRuntimes } from '../../server/runtime/registry';
import { phantomTruth } from '../../server/sim/scenarios';
import type { RunningSimulator } from '../../server/sim/index';
import { runtimeOnSimulator, type SimRuntime } from '../../test-support/sim-runtime';
import { freePort } from '../../test-support/ports';

const START = new Date('2026-11-01T12:00:00Z');
let on: SimRuntime;
let sim: RunningSimulator;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  const grpcPort = await freePort();
  on = await runtimeOnSimulator({
    scenario: 'phantom-503-otlp',
    clock: { fixed: START },
    params: { receiver: `127.0.0.1:${grpcPort}` },
    env: {
      MESHDX_CLOCK: 'objects',
      MESHDX_OTLP_GRPC_PORT: String(grpcPort),
      MESHDX_OTLP_HOST: '127.0.0.1',
      // the simulated sidecars connect from this host, not from their pod IPs
      MESHDX_OTLP_CIDRS: '127.0.0.1/32',
      MESHDX_OTLP_HTTP_PORT: undefined,
    },
  });
  sim = on.sim;
});

afterAll(async () => {
  await stopConfiguredReceiver();
  await on?.close();
});

describe('the simulated sidecars as OTLP senders', () => {
  it("send their 503s to meshdx, which stores them attributed as the story's ground truth says", async () => {
    const from = new Date(START.getTime() - 10 * 60_000).toISOString();
    const to = new Date(START.getTime() + 60_000).toISOString();
    const url = `http://meshdx.test/api/incidents?namespace=shop&from=${from}&to=${to}`;
    expect((await incidentsGet(new Request(url))).status).toBe(200);
    const [rt] = runningRuntimes();
    if (!rt) throw new Error('the route started no runtime');
    await rt.recorder.ready;
    await startConfiguredReceiver(() => undefined);

    // the payments rollout starts 20 s in; the watches keep up as the clock moves
    for (let t = 0; t < 45_000; t += 1000) {
      sim.clock.advance(1000);
      await sleep(10);
    }
    await sim.otlp.flush();
    expect(sim.otlp.stats).toMatchObject({ failed: 0, noEndpoint: 0, lastError: null });
    expect(sim.otlp.stats.sent).toBeGreaterThan(0);

    const window = { fromMs: START.getTime(), toMs: START.getTime() + 60_000 };
    const received = rt.store.failures.inWindow(window).filter((f) => f.source.read === 'otlp');
    expect(received).toHaveLength(sim.otlp.stats.sent);
    // what the story wrote since meshdx listened, up to now (later lines are only scheduled)
    const now = sim.clock.now().getTime();
    const truth = phantomTruth(sim.logs).filter(
      (t) => Date.parse(t.time) >= START.getTime() && Date.parse(t.time) <= now,
    );
    expect(truth.length).toBeGreaterThan(0);
    // every failing request the sidecars wrote was sent, stored and attributed to the pod that
    // held the IP (the checkout proxy that writes JSON to stdout sends the same text body)
    const key = (client: string, time: string | number, ip: string | null) =>
      `shop/${client} ${new Date(time).toISOString()} ${ip}`;
    expect(
      received
        .map(
          (f) =>
            `${f.source.proxy} ${new Date(f.fields.time ?? 0).toISOString()} ${f.attribution.upstreamIp} ${f.attribution.pod?.name}`,
        )
        .sort(),
    ).toEqual(truth.map((t) => `${key(t.client, t.time, t.ip)} ${t.podName}`).sort());

    const view = IncidentsViewSchema.parse(await (await incidentsGet(new Request(url))).json());
    expect(view.memory?.fromReceiver ?? 0).toBeGreaterThan(0);
  }, 90_000);
});
