/**
 * `meshdx gather` of the simulator over HTTP, through the same client code as a real cluster:
 * the archive is istioctl's bug-report layout (entries, YAML, config dumps with EDS, the event
 * table), with meshdx's manifest, pod intervals and recorded failures of the window beside it.
 * The phantom-503 story runs while a runtime records it into a history store file, Incidents
 * records the failing requests, then gather reads that file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { IncidentsViewSchema, type IncidentsView } from '../../lib/api/incidents';
import { endpointsOfDump } from '../../lib/configdump/endpoints';
import { parseConfigDump } from '../../lib/configdump/parse';
import { isZtunnelDump } from '../../lib/configdump/ztunnel';
import { readGatherExtras, type GatherExtras } from '../../lib/gather/extras';
import type { Pod } from '../../lib/kube/types';
import { podKey } from '../../lib/refs/pod-ref';
import { gatherArchive } from '../../server/gather/gather';
import { incidentsOf } from '../../server/screens/incidents/incidents';
import { startSimulator, type RunningSimulator } from '../../server/sim/index';
import type { ClusterRuntime } from '../../server/runtime/runtime';
import type { SimKind } from '../../server/sim/store/kinds';
import { run } from '../../cli/commands/gather';
import { tarGzEntries } from '../../test-support/archive';
import { fakeIO, tempDir } from '../../test-support/cli-io';
import { runtimeOn } from '../../test-support/simulator';

const START = new Date('2026-11-01T12:00:00Z');
const dir = tempDir('gather');
const storeFile = path.join(dir, 'history.sqlite');
const kubeconfig = path.join(dir, 'kubeconfig');
let sim: RunningSimulator;
let rt: ClusterRuntime;
let view: IncidentsView;
let unreachable: string;

const ISTIO_PLURALS: SimKind[] = [
  'virtualservices',
  'destinationrules',
  'gateways',
  'serviceentries',
  'sidecars',
  'envoyfilters',
  'authorizationpolicies',
  'peerauthentications',
  'requestauthentications',
  'telemetries',
];

const GATEWAY_API_PLURALS: SimKind[] = [
  'k8sgateways',
  'httproutes',
  'grpcroutes',
  'gatewayclasses',
];

async function gather(name: string, ...flags: string[]) {
  const io = Object.assign(fakeIO(dir), { gatherer: gatherArchive });
  const out = path.join(dir, name);
  const code = await run(
    ['-o', out, '--kubeconfig', kubeconfig, '--history', storeFile, ...flags],
    io,
  );
  const entries = await tarGzEntries(out);
  const text = (e: string) => entries.get(e)?.bytes.toString('utf8');
  return { code, io, entries, text, extras: readGatherExtras(text) };
}

beforeAll(async () => {
  sim = await startSimulator({ scenario: 'phantom-503', port: 0, clock: { fixed: START } });
  fs.writeFileSync(kubeconfig, sim.kubeconfigYaml, { mode: 0o600 });
  const kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfigYaml);
  rt = runtimeOn(kc, { storeFile, settings: { MESHDX_CLOCK: 'objects' } }).start();
  await rt.pods.whenListed();
  await rt.recorder.ready;
  // the rollout behind the phantom 503s, watched by the runtime step by step
  for (let i = 0; i < 60; i++) {
    sim.clock.advance(2_000);
    await new Promise((r) => setTimeout(r, 20));
  }
  await vi.waitFor(
    () => {
      if (rt.store.intervals().filter((iv) => iv.goneAt !== null).length < 3)
        throw new Error('the rollout has not removed three pods yet');
    },
    { timeout: 20_000 },
  );
  // Incidents reads the clients' logs and records their failing requests in the store
  view = IncidentsViewSchema.parse(await incidentsOf(rt, { namespace: 'shop' }));
  // one client proxy stops answering its admin port before the capture
  const victim = sim.store
    .list<Pod>('pods')
    .find(
      (p) =>
        p.metadata.namespace === 'shop' &&
        p.status?.phase === 'Running' &&
        !p.metadata.deletionTimestamp &&
        p.spec.containers.some((c) => c.name === 'istio-proxy'),
    );
  if (!victim) throw new Error('no running shop proxy in the scenario');
  unreachable = podKey('shop', victim.metadata.name);
  sim.faults.unreachablePods.add(unreachable);
}, 120_000);

afterAll(async () => {
  rt?.stop();
  await sim?.close();
});

function listItems(text: string | undefined): Record<string, unknown>[] {
  const doc = parse(text ?? '') as { kind?: string; items?: Record<string, unknown>[] };
  expect(doc.kind).toBe('List');
  return doc.items ?? [];
}

const meta = (o: Record<string, unknown>) => o.metadata as { name: string; namespace?: string };

describe('meshdx gather of the phantom-503 simulator', () => {
  let all: Awaited<ReturnType<typeof gather>>;
  beforeAll(async () => {
    all = await gather('all.tar.gz', '--since', '30m');
  }, 120_000);

  it("writes istioctl's layout: every entry under bug-report/, the cluster files as kubectl prints them", () => {
    const names = [...all.entries.keys()];
    expect(names.every((n) => n.startsWith('bug-report/'))).toBe(true);
    for (const f of [
      'bug-report/bug-report.log',
      'bug-report/versions',
      'bug-report/cluster/cluster-context',
      'bug-report/cluster/k8s-resources',
      'bug-report/cluster/k8s-cluster-resources',
      'bug-report/cluster/crs',
      'bug-report/cluster/nodes',
      'bug-report/cluster/events',
      'bug-report/cluster/pods',
      'bug-report/meshdx/manifest.json',
    ])
      expect(names, f).toContain(f);
    const items = listItems(all.text('bug-report/cluster/k8s-resources'));
    const kinds = new Set(items.map((i) => i.kind));
    for (const k of ['Pod', 'Service', 'EndpointSlice', 'Deployment', 'ReplicaSet'])
      expect(kinds).toContain(k);
    // the pods are the simulator's, every one of them
    const pods = items
      .filter((i) => i.kind === 'Pod')
      .map((i) => podKey(meta(i).namespace ?? '', meta(i).name));
    const live = sim.store
      .list<Pod>('pods')
      .map((p) => podKey(p.metadata.namespace ?? '', p.metadata.name));
    expect(pods.sort()).toEqual(live.sort());
    // the Istio resources are the simulator's (this story has none: an empty List)
    const istio = ISTIO_PLURALS.flatMap((k) => sim.store.list(k));
    expect(
      listItems(all.text('bug-report/cluster/crs'))
        .map((i) => meta(i).name)
        .sort(),
    ).toEqual(istio.map((o) => o.metadata.name).sort());
    const events = all.text('bug-report/cluster/events') ?? '';
    expect(events.split('\n')[0]).toMatch(
      /^NAMESPACE\s+LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+SUBOBJECT\s+SOURCE\s+MESSAGE\s+FIRST SEEN\s+COUNT\s+NAME$/,
    );
    expect(events.split('\n').length).toBeGreaterThan(3);
    // one progress line per phase, and the same lines in bug-report.log
    const progress = all.io.err
      .split('\n')
      .filter((l) =>
        /^meshdx gather: (cluster|resources|events|proxies|istiod|history|archive):/.test(l),
      );
    expect(progress.map((l) => l.split(':')[1]?.trim())).toEqual([
      'cluster',
      'resources',
      'events',
      'proxies',
      'istiod',
      'history',
      'archive',
    ]);
    expect(all.text('bug-report/bug-report.log')).toContain('history: ');
  });

  it('leaves Secrets out, and says so', () => {
    const names = [...all.entries.keys()];
    expect(names.filter((n) => /secret/i.test(n))).toEqual([]);
    const m = all.extras.manifest;
    expect(m?.skipped.find((s) => s.part === 'cluster/secrets')?.reason).toMatch(
      /never reads Secrets/,
    );
    // (the simulated Envoy never dumps its secrets; dropping Envoy's SecretsConfigDump from a
    // real dump is lib/gather/formats.test.ts's, on istioctl's testdata)
  });

  it("keeps each reachable proxy's full config dump with EDS, /clusters text, stats and server_info", () => {
    const m = all.extras.manifest;
    const envoys = m?.proxies.filter((p) => p.kind === 'envoy') ?? [];
    expect(envoys.length).toBeGreaterThan(3);
    let read = 0;
    for (const p of envoys) {
      const base = `bug-report/proxies/${podKey(p.namespace, p.pod)}/`;
      if (podKey(p.namespace, p.pod) === unreachable) continue;
      const dump = parseConfigDump(all.text(`${base}config_dump?include_eds`) ?? '');
      expect(dump.errors, base).toEqual([]);
      const eds = dump.dump ? endpointsOfDump(dump.dump) : null;
      expect(eds?.hasSection, base).toBe(true);
      expect(all.text(`${base}clusters`), base).toMatch(/::health_flags::/);
      expect(all.text(`${base}stats/prometheus`), base).toMatch(/^# TYPE /m);
      expect(JSON.parse(all.text(`${base}server_info`) ?? '{}')).toHaveProperty('version');
      read++;
    }
    expect(read).toBe(envoys.length - 1);
    expect(m?.istiods.length).toBeGreaterThan(0);
    for (const i of m?.istiods ?? [])
      expect(all.text(`bug-report/istio/${podKey(i.namespace, i.pod)}/debug/syncz`)).toMatch(/^\[/);
  });

  it('names the unreachable proxy with its reason and writes no empty file for it', () => {
    const m = all.extras.manifest;
    const u = m?.unreachable.filter((x) => podKey(x.namespace, x.pod) === unreachable) ?? [];
    expect(u.map((x) => x.what)).toEqual(['envoy admin']);
    expect(u[0]?.reason).toMatch(/refused|unreachable/);
    const files = [...all.entries.keys()].filter((n) =>
      n.startsWith(`bug-report/proxies/${unreachable}/`),
    );
    expect(files.filter((f) => !f.endsWith('istio-proxy.log'))).toEqual([]);
    for (const [name, e] of all.entries)
      if (e.type === 'file') expect(e.bytes.length, name).toBeGreaterThan(0);
    expect(all.code).toBe(1);
    expect(all.io.err).toContain(`unreachable ${unreachable} (envoy admin)`);
  });

  it('keeps the recorded failures and pod intervals of the window, readable with their schemas', () => {
    const x: GatherExtras = all.extras;
    expect(x.problems).toEqual([]);
    expect(x.manifest?.history.problem).toBeNull();
    const window = {
      fromMs: Date.parse(x.manifest?.window.from ?? ''),
      toMs: Date.parse(x.manifest?.window.to ?? ''),
    };
    const recorded = rt.store.failures.inWindow(window);
    expect(recorded.length).toBeGreaterThan(5);
    expect(x.failures).toEqual(recorded);
    // the same failures the Incidents view showed when they were recorded
    expect(x.failures.length).toBe(view.totals.shown);
    const gone = x.intervals.filter((i) => i.goneAt !== null);
    expect(gone.length).toBeGreaterThanOrEqual(3);
    // every phantom: its holder is among the archive's intervals, gone before the pods roll on
    for (const f of x.failures.filter((f) => f.attribution.state === 'gone'))
      expect(
        gone.some((i) => i.uid === f.attribution.pod?.uid),
        f.raw,
      ).toBe(true);
  });
});

describe('gather narrowed', () => {
  it('--namespace keeps only that namespace, its proxies and its failures', async () => {
    const shop = await gather('shop.tar.gz', '--namespace', 'shop');
    const names = [...shop.entries.keys()];
    expect(
      names.filter(
        (n) => n.startsWith('bug-report/proxies/') && !n.startsWith('bug-report/proxies/shop/'),
      ),
    ).toEqual([]);
    const items = listItems(shop.text('bug-report/cluster/k8s-resources'));
    expect(items.length).toBeGreaterThan(0);
    expect(new Set(items.map((i) => meta(i).namespace))).toEqual(new Set(['shop']));
    expect(shop.extras.manifest?.namespaces).toEqual(['shop']);
    expect(shop.extras.failures.length).toBeGreaterThan(0);
    for (const f of shop.extras.failures) expect(f.source.proxy.startsWith('shop/')).toBe(true);
    for (const i of shop.extras.intervals) expect(i.namespace).toBe('shop');
    // istiod is in istio-system: not asked for, and said so
    expect(
      shop.extras.manifest?.skipped.find((s) => s.part === 'istio/istio-system')?.reason,
    ).toMatch(/not among the namespaces/);
  }, 120_000);

  it('--since bounds the window: only the failures and intervals of its last minute', async () => {
    const recent = await gather('recent.tar.gz', '--since', '40s');
    const m = recent.extras.manifest;
    const from = Date.parse(m?.window.from ?? '');
    const to = Date.parse(m?.window.to ?? '');
    expect(to - from).toBe(40_000);
    const everything = rt.store.failures.inWindow({ fromMs: 0, toMs: to });
    expect(recent.extras.failures.length).toBeLessThan(everything.length);
    expect(recent.extras.failures).toEqual(everything.filter((f) => (f.fields.time ?? -1) >= from));
    for (const i of recent.extras.intervals)
      expect(i.goneAt === null || i.goneAt >= from).toBe(true);
    expect(recent.extras.intervals.length).toBeLessThan(rt.store.intervals().length);
  }, 120_000);
});

describe('meshdx gather of the demo simulator', () => {
  const demoDir = tempDir('gather-demo');
  let demo: RunningSimulator;
  let shot: Awaited<ReturnType<typeof gather>>;
  beforeAll(async () => {
    demo = await startSimulator({ scenario: 'demo', port: 0, clock: { fixed: START } });
    const kc = path.join(demoDir, 'kubeconfig');
    fs.writeFileSync(kc, demo.kubeconfigYaml, { mode: 0o600 });
    const io = Object.assign(fakeIO(demoDir), { gatherer: gatherArchive });
    const out = path.join(demoDir, 'demo.tar.gz');
    // no history store for this context: said so in the manifest, the cluster still written
    const code = await run(['-o', out, '--kubeconfig', kc, '--since', '2h'], io);
    const entries = await tarGzEntries(out);
    const text = (e: string) => entries.get(e)?.bytes.toString('utf8');
    shot = { code, io, entries, text, extras: readGatherExtras(text) };
  }, 300_000);
  afterAll(async () => {
    await demo?.close();
  });

  it("holds the demo's Istio and Gateway API resources, its ztunnels' config dumps and every namespace", () => {
    // Gateway API's beside Istio's: the waypoint is a Gateway of it
    const istio = [...ISTIO_PLURALS, ...GATEWAY_API_PLURALS].flatMap((k) => demo.store.list(k));
    expect(demo.store.list('k8sgateways').length).toBeGreaterThan(0);
    expect(istio.length).toBeGreaterThan(0);
    const crs = listItems(shot.text('bug-report/cluster/crs'));
    expect(crs.map((i) => podKey(meta(i).namespace ?? '', meta(i).name)).sort()).toEqual(
      istio.map((o) => podKey(o.metadata.namespace ?? '', o.metadata.name)).sort(),
    );
    const ztunnels = shot.extras.manifest?.proxies.filter((p) => p.kind === 'ztunnel') ?? [];
    expect(ztunnels.length).toBeGreaterThan(0);
    for (const z of ztunnels) {
      const dump = JSON.parse(
        shot.text(`bug-report/proxies/${podKey(z.namespace, z.pod)}/config_dump`) ?? 'null',
      ) as unknown;
      expect(isZtunnelDump(dump), z.pod).toBe(true);
    }
    const namespaces = listItems(shot.text('bug-report/cluster/k8s-cluster-resources'))
      .filter((i) => i.kind === 'Namespace')
      .map((i) => meta(i).name);
    expect(namespaces.sort()).toEqual(
      demo.store
        .list('namespaces')
        .map((n) => n.metadata.name)
        .sort(),
    );
  });

  it("asks within meshdx's request budget, read-only: no watch, every call counted", async () => {
    const m = shot.extras.manifest;
    if (!m) throw new Error('no manifest');
    expect(m.budget.peakInFlightProxy).toBeGreaterThan(0);
    expect(m.budget.peakInFlightProxy).toBeLessThanOrEqual(m.budget.proxyConcurrency);
    expect(m.budget.peakQps).toBeLessThanOrEqual(m.budget.burst + m.budget.qps);
    // what the simulated API server counted is what the budget counted (nobody else asked it)
    const info = (await (await fetch(`${demo.url}/_sim/info`)).json()) as {
      requests: Record<string, number>;
    };
    const sum = (verb: string) =>
      Object.entries(info.requests)
        .filter(([k]) => k.startsWith(`${verb} `))
        .reduce((n, [, v]) => n + v, 0);
    expect(sum('watch')).toBe(0);
    expect(sum('portforward')).toBe(m.requests.portforward);
    expect(sum('log')).toBe(m.requests.log);
    expect(sum('list')).toBe(m.requests.list);
    for (const verb of ['create', 'update', 'patch', 'delete']) expect(sum(verb)).toBe(0);
  });

  it('says the history is missing and why, with no records rather than zero figures', () => {
    const m = shot.extras.manifest;
    expect(m?.history.problem).toMatch(/no history store at .*--history FILE/);
    expect(m?.skipped.find((s) => s.part === 'meshdx history')?.reason).toBe(m?.history.problem);
    expect(shot.extras.failures).toEqual([]);
    expect(shot.io.err).toMatch(/meshdx gather: history: 0 pod intervals .*no history store/);
  });
});
