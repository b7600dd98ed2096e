/**
 * The layer that held each failing IP, through GET /api/incidents on the simulator: three
 * phantom-503 variants, each with one slow layer (the EndpointSlice controller 5 s late, istiod's
 * push 8 s after its debounce, one checkout proxy ACKing 20 s late), and ambient with every
 * ztunnel applying pushes 12 s late (the clients' requests logged by their nodes' ztunnels), read
 * by the runtime's layer sampler every 500 ms of simulated time. For every failing IP and client the view must name the
 * slow layer and its delay within 1 s of what the simulator was set to.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { GET as incidentsGet } from '../../app/api/incidents/route';
import { IncidentsViewSchema, type IncidentsView } from '../../lib/api/incidents';
import { phantomTruth } from '../../server/sim/scenarios/phantom-503';
import { runningRuntimes } from '../../server/runtime/registry';
import { layerSamplerScreen } from '../../server/screens/incidents/layers';
import { runtimeOnSimulator, type SimRuntime } from '../../test-support/sim-runtime';
import { COMPLETENESS_ENV } from '../../test-support/deadlines';

const START = new Date('2026-11-01T12:00:00Z');
const STEP_MS = 500;
let on: SimRuntime | undefined;

afterEach(async () => {
  await on?.close();
  on = undefined;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function open(url: string): Promise<IncidentsView> {
  const res = await incidentsGet(new Request(url));
  expect(res.status, await res.clone().text()).toBe(200);
  return IncidentsViewSchema.parse(await res.json());
}

/** Runs a variant through its rollout, sampling the layers every STEP_MS; returns the view. */
async function runVariant(scenario: string): Promise<{ view: IncidentsView; failing: number }> {
  on = await runtimeOnSimulator({
    scenario,
    clock: { fixed: START },
    // the sampler's own timer never fires here: the test samples on the simulated clock
    env: { MESHDX_CLOCK: 'objects', MESHDX_LAYER_SAMPLE_MS: '600000', ...COMPLETENESS_ENV },
  });
  const sim = on.sim;
  const from = new Date(START.getTime() - 60_000).toISOString();
  const to = new Date(START.getTime() + 120_000).toISOString();
  const url = `http://meshdx.test/api/incidents?namespace=shop&from=${from}&to=${to}`;
  await open(url);
  const [rt] = runningRuntimes();
  if (!rt) throw new Error('the route started no runtime');
  await rt.recorder.ready;
  const sampler = rt.screen(layerSamplerScreen);
  if (!sampler) throw new Error('no layer sampler');
  // the rollout starts 20 s in; the slowest layer lets go of the last pod about 85 s in
  for (let t = 0; t < 100_000; t += STEP_MS) {
    sim.clock.advance(STEP_MS);
    await sleep(5);
    if (t >= 15_000) await sampler.sample(sim.clock.now().getTime());
  }
  await sleep(300);
  const view = await open(url);
  return { view, failing: phantomTruth(sim.logs).length };
}

function heldBy(view: IncidentsView) {
  return view.layers.timelines.map((t) => ({
    key: `${t.pod} ${t.ip} ${t.client}`,
    held: t.held,
    heldMs: t.heldMs,
    steps: Object.fromEntries(t.steps.map((s) => [s.layer, s.delayMs])),
    sentence: t.sentence,
    client: t.client,
    ztunnels: t.ztunnels,
  }));
}

describe('the layer that held each failing IP (phantom-503 variants, through the route)', () => {
  it('a slow EndpointSlice controller: the EndpointSlice held every IP for 5 s', async () => {
    const { view, failing } = await runVariant('phantom-503-slow-slices');
    const rows = heldBy(view);
    expect(failing).toBeGreaterThan(20);
    // every deleted payments (5) and inventory (2) pod, from both clients
    expect(rows.length).toBe(14);
    for (const r of rows) {
      expect(r.held, `${r.key}: ${r.sentence}`).toBe('endpointslice');
      expect(Math.abs((r.heldMs ?? 0) - 5000), r.sentence).toBeLessThan(1000);
    }
    expect(rows[0]?.sentence).toMatch(
      /the EndpointSlice marked it not ready \d+\.\d s after its deletion started/,
    );
  }, 120_000);

  it("a slow istiod push: istiod's push held every IP for 8.1 s", async () => {
    const { view } = await runVariant('phantom-503-slow-push');
    const rows = heldBy(view);
    expect(rows.length).toBe(14);
    for (const r of rows) {
      expect(r.held, `${r.key}: ${r.sentence}`).toBe('istiod');
      // 100 ms of debounce, then 8 s in the push queue
      expect(Math.abs((r.heldMs ?? 0) - 8100), r.sentence).toBeLessThan(1000);
      expect(Math.abs(r.steps.endpointslice ?? 99_999)).toBeLessThan(1000);
    }
  }, 120_000);

  it('one client proxy slow to ACK: its Envoy held every IP for 20 s, the other client none', async () => {
    const { view } = await runVariant('phantom-503-slow-ack');
    const rows = heldBy(view);
    const clients = [...new Set(rows.map((r) => r.key.split(' ')[2]))];
    expect(clients.length).toBe(2);
    const slow = rows.filter((r) => r.held === 'envoy' && (r.heldMs ?? 0) > 10_000);
    expect(new Set(slow.map((r) => r.key.split(' ')[2])).size).toBe(1);
    expect(slow.length).toBe(7);
    for (const r of slow) {
      expect(Math.abs((r.heldMs ?? 0) - 20_000), r.sentence).toBeLessThan(1000);
      expect(r.sentence).toMatch(/ACKed 2\d\.\d s later: its Envoy kept the host, health healthy/);
    }
    for (const r of rows.filter((x) => !slow.includes(x)))
      expect(r.heldMs ?? 0, r.sentence).toBeLessThan(1000);
  }, 120_000);

  it("ambient, ztunnels slow to apply a push: each client's ztunnel held every IP for 12 s", async () => {
    const { view, failing } = await runVariant('phantom-503-slow-ztunnel');
    const rows = heldBy(view);
    expect(failing).toBeGreaterThan(20);
    const clients = [...new Set(rows.map((r) => r.client))];
    expect(clients.length).toBeGreaterThan(0);
    for (const c of clients) expect(c).toMatch(/^istio-system\/ztunnel-/);
    // every deleted payments (5) and inventory (2) pod, from each client's ztunnel
    expect(rows.length).toBe(7 * clients.length);
    for (const r of rows) {
      expect(r.held, `${r.key}: ${r.sentence}`).toBe('ztunnel');
      expect(Math.abs((r.heldMs ?? 0) - 12_000), r.sentence).toBeLessThan(1000);
      expect(Math.abs(r.steps.endpointslice ?? 99_999), r.sentence).toBeLessThan(1000);
      expect(Math.abs(r.steps.istiod ?? 99_999), r.sentence).toBeLessThan(1000);
      // the client's own ztunnel among those seen dropping the workload
      const own = r.ztunnels.find((z) => z.ztunnel === r.client);
      expect(Math.abs((own?.delayMs ?? 0) - 12_000), r.sentence).toBeLessThan(1000);
      expect(r.sentence).toMatch(
        /ztunnel-[a-z0-9-]+ dropped the workload 1\d\.\d s after the push \(Unhealthy|removed\)/,
      );
      expect(r.sentence).toContain("Held longest by the client's ztunnel");
    }
  }, 120_000);
});
