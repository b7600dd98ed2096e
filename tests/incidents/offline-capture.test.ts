import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../cli/commands/attribute';
import { fakeIO, tempDir } from '../../test-support/cli-io';
import type { Pod } from '../../lib/kube/types';
import { startSimulator } from '../../server/sim/index';
import { phantomTruth, type PhantomTruth } from '../../server/sim/scenarios/phantom-503';
import { podLogs } from '../../server/kube/logs';
import { listPods } from '../../server/kube/resources';
import { KubeTransport } from '../../server/kube/transport';
import { buildIncidents } from '../../server/screens/incidents/incidents';
import { recordIpHistory, type RecordedIpHistory } from '../../test-support/feeds';
import { advanceWatched } from '../../test-support/simulator';

/**
 * The offline story of the issue: what an SRE captures with kubectl during a phantom-503
 * incident (`kubectl get pods -A -w -o json --output-watch-events`, which carries no event
 * times, and `kubectl logs POD -c istio-proxy` of the clients) gives `meshdx attribute` the
 * same answer the dashboard gives from its own timed watch.
 */
type Sim = Awaited<ReturnType<typeof startSimulator>>;
const START = new Date('2026-11-01T12:00:00Z');
const dir = tempDir('offline-capture');
let sim: Sim;
let t: KubeTransport;
let timedRec: RecordedIpHistory;
let timed: RecordedIpHistory['source'];
let truth: readonly PhantomTruth[];
let stopCapture: () => void;
const captured: string[] = [];

/** The raw watch stream, written as kubectl -o json --output-watch-events writes it. */
function captureWatch(server: string, resourceVersion: string): () => void {
  const url = new URL(`/api/v1/pods?watch=true&resourceVersion=${resourceVersion}`, server);
  let buf = '';
  const req = http.get(url, (res) => {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buf += chunk;
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl).trim();
        buf = buf.slice(nl + 1);
        if (line) captured.push(JSON.stringify(JSON.parse(line), null, 4));
      }
    });
  });
  req.on('error', () => undefined);
  return () => req.destroy();
}

beforeAll(async () => {
  sim = await startSimulator({ scenario: 'phantom-503', port: 0, clock: { fixed: START } });
  const kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfigYaml);
  t = new KubeTransport(kc);
  timedRec = recordIpHistory(t, kc, { clock: 'api-server', now: () => sim.clock.now() });
  timed = timedRec.source;
  const listed = await listPods(t);
  for (const p of listed.items)
    captured.push(JSON.stringify({ type: 'ADDED', object: p }, null, 4));
  stopCapture = captureWatch(kc.getCurrentCluster()?.server ?? '', listed.resourceVersion);
  await timed.ready;
  await advanceWatched(sim, 120_000, 1_000, [timedRec.events, () => captured.length]);
  let last = -1;
  for (let i = 0; i < 100 && captured.length + timedRec.events() !== last; i++) {
    last = captured.length + timedRec.events();
    await new Promise((r) => setTimeout(r, 150));
  }
  stopCapture();
  truth = phantomTruth(sim.logs);
}, 60_000);

afterAll(async () => {
  stopCapture?.();
  timedRec?.stop();
  t?.close();
  await sim?.close();
});

/** The IP of an Envoy upstream address (`10.0.0.1:80`, `[2001:db8::1]:80`). */
const hostOf = (addr: string) => addr.replace(/:\d+$/, '').replace(/^\[(.*)\]$/, '$1');

describe('meshdx attribute on kubectl captures of the phantom-503 scenario', () => {
  it('gives every 503 the pod and the state the dashboard gives', async () => {
    const clients = [...new Set(truth.map((tr) => tr.client))];
    expect(clients.length).toBeGreaterThan(0);
    const logs = await Promise.all(
      clients.map((c) => podLogs(t, 'shop', c, 'istio-proxy', { timestamps: false })),
    );
    fs.writeFileSync(path.join(dir, 'clients.log'), logs.join(''));
    fs.writeFileSync(path.join(dir, 'pods-watch.json'), captured.join('\n') + '\n');
    expect(captured.some((l) => l.includes('"DELETED"'))).toBe(true);

    const io = fakeIO(dir);
    const code = await run(['clients.log', '--history', 'pods-watch.json', '--json'], io);
    expect(io.err).toMatch(/^meshdx attribute: note: .* has no event times .*\n$/);
    expect(code).toBe(0);
    const out = JSON.parse(io.out) as {
      attributions: {
        time: string;
        upstream: string;
        state: string;
        pod: { uid: string } | null;
      }[];
    };

    const view = await buildIncidents(
      { namespace: 'shop' },
      { t, history: timed, now: () => sim.clock.now().getTime() },
    );
    const dashboard = new Map(
      view.requests.map((r) => [`${Date.parse(r.time ?? '')}|${r.upstreamIp}`, r]),
    );
    let differ = 0;
    for (const tr of truth) {
      const key = `${Date.parse(tr.time)}|${tr.ip}`;
      const a = out.attributions.find((x) => `${Date.parse(x.time)}|${hostOf(x.upstream)}` === key);
      expect(a, `503 at ${tr.time} to ${tr.ip}`).toBeDefined();
      expect(a?.pod?.uid).toBe(tr.podUid);
      const d = dashboard.get(key);
      expect(d?.pod?.uid).toBe(tr.podUid);
      if (a?.state !== d?.state) differ++;
    }
    // The capture dates a removal by the containers' last exit, the timed watch by when the
    // DELETED arrived (the next 1 s step): at most one request per client and pod falls between.
    const pairs = new Set(truth.map((tr) => `${tr.client}|${tr.podUid}`));
    expect(differ).toBeLessThanOrEqual(pairs.size);
    const terminated = out.attributions.filter((a) => a.state === 'terminated').length;
    expect(terminated).toBeGreaterThan(truth.length / 4);
    expect(terminated).toBeGreaterThanOrEqual((view.totals.byState.terminated ?? 0) - pairs.size);
    const stillListed = new Set(sim.store.list<Pod>('pods').map((p) => p.metadata.uid));
    for (const a of out.attributions.filter((x) => x.state === 'terminated'))
      expect(stillListed.has(a.pod?.uid ?? '')).toBe(false);
  });
});
