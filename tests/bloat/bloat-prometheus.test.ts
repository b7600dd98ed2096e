import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asMeshdx } from '../../server/auth/identity';
import { BloatViewSchema } from '../../lib/api/bloat-view';
import { resetRegistry } from '../../server/runtime/registry';
import { getBloat } from '../../server/screens/scoping/bloat';
import { startSimulator, type RunningSimulator } from '../../server/sim/index';
import {
  requirePrometheus,
  startPrometheus,
  waitForQuery,
  type RunningPrometheus,
} from '../../test-support/prometheus';
import { EVENT_WAIT_GUARD_MS } from '../../test-support/deadlines';

/**
 * Bloat over time against a real Prometheus scraping the simulator every second: a Sidecar
 * applied with real kubectl makes the namespace's proxies report fewer clusters from then on,
 * and the range answer shows the drop after the marker, near Scoping's figure for that scope.
 */
requirePrometheus();
const run = promisify(execFile);
let NS = '';

let sim: RunningSimulator;
let prom: RunningPrometheus;
let dir: string;
let kubeconfig: string;
const saved = { ...process.env };

const kubectl = (args: string[], input?: string) => {
  const p = run('kubectl', ['--kubeconfig', kubeconfig, ...args]);
  if (input !== undefined) {
    p.child.stdin?.end(input);
  }
  return p;
};

async function namespaceAvg(): Promise<number> {
  const q = `avg(envoy_cluster_manager_active_clusters{namespace="${NS}"})`;
  const r = (await (
    await fetch(`${prom.url}/api/v1/query?query=${encodeURIComponent(q)}`)
  ).json()) as { data: { result: { value: [number, string] }[] } };
  return Number(r.data.result[0]?.value[1] ?? NaN);
}

describe('bloat over time from Prometheus range queries', () => {
  beforeAll(async () => {
    sim = await startSimulator({ scenario: 'demo', port: 0 });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-bloat-'));
    kubeconfig = path.join(dir, 'kubeconfig');
    fs.writeFileSync(kubeconfig, sim.kubeconfigYaml);
    prom = await startPrometheus({
      hostPort: `127.0.0.1:${sim.port}`,
      metricsPath: '/_sim/envoy/metrics',
      scrapeSeconds: 1,
    });
    resetRegistry();
    process.env.MESHDX_KUBECONFIG = kubeconfig;
    process.env.MESHDX_DB = ':memory:';
    process.env.MESHDX_PROMETHEUS = prom.url;
    process.env.MESHDX_API_QPS = '500';
    process.env.MESHDX_API_BURST = '500';
    delete process.env.MESHDX_CONTEXT;
    // a namespace of proxies that no Sidecar scopes yet
    const scoped = JSON.parse((await kubectl(['get', 'sidecars', '-A', '-o', 'json'])).stdout) as {
      items: { metadata: { namespace: string } }[];
    };
    const taken = new Set(scoped.items.map((i) => i.metadata.namespace));
    let namespaces: string[] = [];
    await waitForQuery(
      prom,
      'count by (namespace) (envoy_cluster_manager_active_clusters)',
      (r) => {
        namespaces = r.map((x) => x.metric.namespace ?? '').filter((n) => n && !taken.has(n));
        return namespaces.length > 0;
      },
    );
    NS = namespaces.sort().find((n) => n !== 'istio-system') ?? '';
    expect(NS).not.toBe('');
  }, 60_000);

  afterAll(async () => {
    resetRegistry();
    process.env = { ...saved };
    await prom?.stop();
    await sim?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('shows the drop after a Sidecar is applied, at the Sidecar time', async () => {
    const t0 = Date.now();
    await new Promise((r) => setTimeout(r, 3_000));
    const before = await namespaceAvg();
    expect(before).toBeGreaterThan(20);
    const applied = Date.now();
    await kubectl(
      ['apply', '-f', '-'],
      [
        'apiVersion: networking.istio.io/v1',
        'kind: Sidecar',
        'metadata:',
        '  name: default',
        `  namespace: ${NS}`,
        'spec:',
        '  egress:',
        '    - hosts: ["./*", "istio-system/*"]',
        '',
      ].join('\n'),
    );
    // the simulated proxies recompute their clusters from the scope: the next scrapes drop
    const until = Date.now() + EVENT_WAIT_GUARD_MS;
    let after = before;
    while (Date.now() < until && !(after < before)) {
      await new Promise((r) => setTimeout(r, 500));
      after = await namespaceAvg();
    }
    expect(after).toBeLessThan(before);
    // ask until Prometheus holds samples a few seconds past the Sidecar (it scrapes every
    // second, but a loaded machine delays scrapes): the range must show both sides
    const read = async () => {
      const v = BloatViewSchema.parse(
        await getBloat(asMeshdx(null), {
          namespace: NS,
          workload: null,
          fromMs: t0,
          toMs: Date.now(),
        }),
      );
      if (v.state !== 'ok') throw new Error(`bloat view: ${JSON.stringify(v)}`);
      return v;
    };
    let view = await read();
    const markerOf = (v: typeof view) =>
      v.markers.find((m) => m.namespace === NS && m.name === 'default');
    const lateOf = (v: typeof view) =>
      v.line.points.filter((p) => p.avg !== null && p.t > (markerOf(v)?.at ?? 0) + 3_000);
    for (
      let end = Date.now() + EVENT_WAIT_GUARD_MS;
      lateOf(view).length === 0 && Date.now() < end;
    ) {
      await new Promise((r) => setTimeout(r, 500));
      view = await read();
    }
    expect(view.stepSeconds).toBe(1);
    expect(view.line.points.length).toBeLessThanOrEqual(240);
    const marker = markerOf(view);
    expect(marker?.from).toBe('creationTimestamp');
    // the marker sits where kubectl applied it (the object's time is whole seconds)
    expect(Math.abs((marker?.at ?? 0) - applied)).toBeLessThan(2_000);
    const at = marker?.at ?? 0;
    const reported = view.line.points.filter((p) => p.avg !== null);
    const early = reported.filter((p) => p.t < at - 1_000);
    const late = lateOf(view);
    expect(early.length).toBeGreaterThan(0);
    expect(late.length).toBeGreaterThan(0);
    for (const p of early) expect(p.avg).toBeCloseTo(before, 0);
    for (const p of late) expect(p.avg).toBeCloseTo(after, 0);
    // one line per workload of the namespace, and none of its pods unknown to the inventory
    expect(view.workloads.length).toBeGreaterThan(0);
    expect(view.unattributedPods).toBe(0);
    // Scoping's model of the scope now in force is what the proxies report
    expect(view.prediction.error).toBeNull();
    expect(view.prediction.modelled).not.toBeNull();
    expect(Math.abs((view.prediction.modelled ?? 0) - after)).toBeLessThanOrEqual(after * 0.1);

    const w = view.workloads[0]?.name ?? '';
    const one = BloatViewSchema.parse(
      await getBloat(asMeshdx(null), { namespace: NS, workload: w, fromMs: t0, toMs: Date.now() }),
    );
    expect(one.state === 'ok' && one.line.name).toBe(w);
  }, 60_000);

  it('leaves the ingress gateway out of its namespace’s line and keeps its own', async () => {
    const gateways = JSON.parse(
      (
        await kubectl([
          'get',
          'pods',
          '-n',
          'istio-system',
          '-l',
          'istio=ingressgateway',
          '-o',
          'json',
        ])
      ).stdout,
    ) as { items: { metadata: { name: string } }[] };
    expect(gateways.items.length).toBeGreaterThan(0);
    const v = BloatViewSchema.parse(
      await getBloat(asMeshdx(null), {
        namespace: 'istio-system',
        workload: null,
        fromMs: Date.now() - 60_000,
      }),
    );
    if (v.state !== 'ok') throw new Error(`bloat view: ${JSON.stringify(v)}`);
    expect(v.unscopablePods).toBe(gateways.items.length);
    // istio-system's only Envoys are gateways: its sidecar line is empty, never their average
    expect(v.line.pods).toBe(0);
    expect(v.line.points.every((p) => p.avg === null)).toBe(true);
    expect(v.workloads.reduce((n, w) => n + w.pods, 0)).toBe(gateways.items.length);
  });

  it('a Prometheus that does not answer is an error naming it, not an empty chart', async () => {
    resetRegistry();
    process.env.MESHDX_PROMETHEUS = 'http://127.0.0.1:9/';
    const view = await getBloat(asMeshdx(null), { namespace: NS, workload: null });
    expect(view.state).toBe('error');
    if (view.state === 'error') expect(view.message).toMatch(/not reachable/);
    resetRegistry();
    delete process.env.MESHDX_PROMETHEUS;
    const off = await getBloat(asMeshdx(null), { namespace: NS, workload: null });
    expect(off.state).toBe('needs-prometheus');
    process.env.MESHDX_PROMETHEUS = prom.url;
  });
});
