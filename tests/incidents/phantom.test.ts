import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncidentsView } from '../../lib/api/incidents';
import { IncidentsViewSchema } from '../../lib/api/incidents';
import type { Pod } from '../../lib/kube/types';
import { startSimulator } from '../../server/sim/index';
import { phantomTruth, type PhantomTruth } from '../../server/sim/scenarios/phantom-503';
import { KubeTransport } from '../../server/kube/transport';
import { envoyAdminGet } from '../../server/kube/podports';
import { buildIncidents } from '../../server/screens/incidents/incidents';
import { recordIpHistory, type RecordedIpHistory } from '../../test-support/feeds';
import { advanceWatched } from '../../test-support/simulator';
import { NO_PROXY_TIMEOUT_FOR_COMPLETENESS } from '../../test-support/deadlines';

type Sim = Awaited<ReturnType<typeof startSimulator>>;
const START = new Date('2026-11-01T12:00:00Z');
let sim: Sim;
let kc: KubeConfig;
let t: KubeTransport;
let timedRec: RecordedIpHistory;
let untimedRec: RecordedIpHistory;
let timed: RecordedIpHistory['source'];
let untimed: RecordedIpHistory['source'];
let truth: readonly PhantomTruth[];

beforeAll(async () => {
  sim = await startSimulator({ scenario: 'phantom-503', port: 0, clock: { fixed: START } });
  kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfigYaml);
  t = new KubeTransport(kc);
  // the store the runtime records into, dated by observation on the simulated clock, and
  // dated only by the pod objects' own times (the 'objects' clock of a frozen cluster)
  timedRec = recordIpHistory(t, kc, { clock: 'api-server', now: () => sim.clock.now() });
  untimedRec = recordIpHistory(t, kc, { clock: 'objects' });
  timed = timedRec.source;
  untimed = untimedRec.source;
  await Promise.all([timed.ready, untimed.ready]);
  await advanceWatched(sim, 120_000, 1_000, [timedRec.events, untimedRec.events]);
  // let the watches drain what the last steps produced: wait until both stop growing
  let last = -1;
  for (let i = 0; i < 100; i++) {
    const n =
      timed.load().intervals().length +
      untimed.load().intervals().length +
      timedRec.events() +
      untimedRec.events();
    if (n === last) break;
    last = n;
    await new Promise((r) => setTimeout(r, 150));
  }
  truth = phantomTruth(sim.logs);
}, 60_000);

afterAll(async () => {
  timedRec?.stop();
  untimedRec?.stop();
  t?.close();
  await sim?.close();
});

const q = { namespace: 'shop' } as const;

function expectEveryTruthAttributed(view: IncidentsView): void {
  const rows = view.requests;
  for (const tr of truth) {
    const row = rows.find(
      (r) =>
        r.source === `shop/${tr.client}` &&
        r.time !== null &&
        Date.parse(r.time) === Date.parse(tr.time) &&
        r.upstreamIp === tr.ip,
    );
    expect(row, `503 at ${tr.time} from ${tr.client} to ${tr.ip}`).toBeDefined();
    expect(row?.pod?.uid).toBe(tr.podUid);
    expect(row?.pod?.name).toBe(tr.podName);
    expect(['terminating', 'terminated']).toContain(row?.state);
  }
}

describe('incidents on the phantom-503 scenario over HTTP', () => {
  it('the story produced 503s, including to a reused IP', () => {
    expect(truth.length).toBeGreaterThan(10);
    const live = sim.store.list<Pod>('pods').map((p) => p.status?.podIP);
    expect(truth.some((tr) => live.includes(tr.ip))).toBe(true);
  });

  for (const [label, source] of [
    ['with observation times', () => timed],
    ['with object times only', () => untimed],
  ] as const) {
    it(`attributes every logged 503 to the pod that held the IP (${label})`, async () => {
      const view = await buildIncidents(q, {
        t,
        history: source(),
        now: () => sim.clock.now().getTime(),
      });
      IncidentsViewSchema.parse(view);
      expect(view.sources.filter((s) => s.problem !== null)).toEqual([]);
      // each failing request the clients logged is a truth entry, and the other way round
      expect(view.totals.shown).toBe(truth.length);
      expectEveryTruthAttributed(view);
    });
  }

  it('dates removals from the pod objects when there is no clock, like with one', async () => {
    const a = await buildIncidents(q, { t, history: timed });
    const b = await buildIncidents(q, { t, history: untimed });
    expect(a.totals.byState.terminated ?? 0).toBeGreaterThan(truth.length / 4);
    // Same pods and counts; states may differ only for the one request per client and pod
    // that falls between the two removal estimates (watch arrival after a 1 s step vs. the
    // containers' exit, 500 ms before the simulated removal).
    const key = (v: typeof a) => v.pods.map((p) => [p.pod?.uid, p.count]).sort();
    expect(key(b)).toEqual(key(a));
    const pairs = new Set(
      a.requests.filter((r) => r.state === 'terminated').map((r) => `${r.client}|${r.pod?.uid}`),
    );
    const diff = Math.abs((a.totals.byState.terminated ?? 0) - (b.totals.byState.terminated ?? 0));
    expect(diff).toBeLessThanOrEqual(pairs.size);
    expect(b.totals.byState.terminated ?? 0).toBeGreaterThan(truth.length / 4);
  });

  it('the reused IP is blamed on the old pod, not on its live new holder', async () => {
    const view = await buildIncidents(q, {
      t,
      history: timed,
      now: () => sim.clock.now().getTime(),
    });
    const liveByIp = new Map(
      sim.store.list<Pod>('pods').map((p) => [p.status?.podIP ?? '', p.metadata.uid ?? '']),
    );
    const reused = truth.filter((tr) => liveByIp.has(tr.ip));
    expect(reused.length).toBeGreaterThan(0);
    for (const tr of reused) {
      const rows = view.requests.filter((r) => r.upstreamIp === tr.ip);
      expect(rows.length).toBeGreaterThan(0);
      for (const r of rows) expect(r.pod?.uid).not.toBe(liveByIp.get(tr.ip));
    }
  });

  it('groups by pod, finds the rollout and recommends outlier detection and retries', async () => {
    const view = await buildIncidents(q, {
      t,
      history: timed,
      now: () => sim.clock.now().getTime(),
    });
    const podsInTruth = new Set(truth.map((tr) => tr.podUid));
    expect(new Set(view.pods.map((p) => p.pod?.uid))).toEqual(podsInTruth);
    for (const p of view.pods) {
      expect(p.count).toBe(truth.filter((tr) => tr.podUid === p.pod?.uid).length);
      expect(p.deletionStartedAt).not.toBeNull();
      expect(p.goneAt).not.toBeNull();
    }
    expect(view.chart.rollouts.map((r) => r.workload)).toContain('payments');
    expect(
      view.chart.markers.filter((m) => m.kind === 'termination').length,
    ).toBeGreaterThanOrEqual(podsInTruth.size);
    const codes = view.findings.map((f) => `${f.code} ${f.subject.name}`);
    expect(codes).toContain('MDX0401 payments');
    expect(codes).toContain('MDX0402 inventory');
    expect(codes).toContain('MDX0403 payments');
    expect(codes).toContain('MDX0405 payments');
    const dr = view.findings.find((f) => f.code === 'MDX0403' && f.subject.name === 'payments');
    expect(dr?.fix?.yaml).toContain('outlierDetection');
    expect(dr?.fix?.yaml).toContain('host: payments.shop.svc.cluster.local');
    const retry = view.findings.find((f) => f.code === 'MDX0405' && f.subject.name === 'payments');
    expect(retry?.fix?.yaml).toMatch(/retryOn: .*reset/);
    expect(view.services.find((s) => s.fqdn.startsWith('payments.'))?.retries.isDefault).toBe(true);
  });

  it('filters by time window, service and IP from the URL state', async () => {
    const first = truth[0] as PhantomTruth;
    const view = await buildIncidents(
      { namespace: 'shop', ip: first.ip, service: 'payments' },
      { t, history: timed },
    );
    const expected = truth.filter((tr) => tr.ip === first.ip).length;
    expect(view.totals.shown).toBe(expected);
    const from = new Date(Date.parse(first.time) + 1).toISOString();
    const windowed = await buildIncidents({ namespace: 'shop', from }, { t, history: timed });
    expect(windowed.totals.shown).toBe(truth.filter((tr) => tr.time >= from).length);
  });

  it('reads a client proxy /clusters and compares it with the EndpointSlices', async () => {
    const client = `shop/${truth[0]?.client ?? ''}`;
    const view = await buildIncidents(
      { namespace: 'shop', client },
      {
        t,
        history: timed,
        clustersJson: async (ns, pod) =>
          (
            await envoyAdminGet(kc, ns, pod, '/clusters?format=json', {
              timeoutMs: NO_PROXY_TIMEOUT_FOR_COMPLETENESS,
            })
          ).body,
      },
    );
    expect(view.stale?.client).toBe(client);
    expect(view.stale?.problem).toBeNull();
    expect(view.stale?.checked).toBeGreaterThan(0);
    // the stale-EDS stage: a removed payments pod still in the client's host list
    const late = truth.filter(
      (tr) => Date.parse(tr.time) > Date.parse(truth[0]?.time ?? '') + 60_000,
    );
    const staleTruth = late.find((tr) => tr.podName.startsWith('payments-'));
    expect(staleTruth).toBeDefined();
    const host = view.stale?.hosts.find((h) => h.address === `${staleTruth?.ip}:8080`);
    expect(host?.lastHolder).toBe(`shop/${staleTruth?.podName}`);
    expect(host?.state).toBe('terminated');
    expect(host?.service).toBe('payments.shop.svc.cluster.local');
    expect(
      view.findings.some((f) => f.code === 'MDX0407' && f.subject.name === truth[0]?.client),
    ).toBe(true);
    expect(view.sources.map((s) => s.source)).toEqual([client]);
  });
});
