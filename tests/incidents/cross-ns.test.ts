import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IncidentsViewSchema, type IncidentsView } from '../../lib/api/incidents';
import { barSpans } from '../../lib/incidents/chart';
import { startSimulator } from '../../server/sim/index';
import { phantomTruth, type PhantomTruth } from '../../server/sim/scenarios/phantom-503';
import { KubeTransport } from '../../server/kube/transport';
import { MAX_CLIENTS } from '../../lib/incidents/choose';
import { buildIncidents } from '../../server/screens/incidents/incidents';
import { clientSignals } from '../../server/screens/incidents/client-signals';
import { recordIpHistory, type RecordedIpHistory } from '../../test-support/feeds';
import { advanceWatched } from '../../test-support/simulator';
import { podKey } from '../../lib/refs/pod-ref';
import { NO_PROXY_TIMEOUT_FOR_COMPLETENESS } from '../../test-support/deadlines';

type Sim = Awaited<ReturnType<typeof startSimulator>>;
const START = new Date('2026-11-01T12:00:00Z');
let sim: Sim;
let kc: KubeConfig;
let t: KubeTransport;
let rec: RecordedIpHistory;
let truth: readonly PhantomTruth[];
let view: IncidentsView;

beforeAll(async () => {
  sim = await startSimulator({ scenario: 'phantom-cross-ns', port: 0, clock: { fixed: START } });
  kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfigYaml);
  t = new KubeTransport(kc);
  rec = recordIpHistory(t, kc, { clock: 'api-server', now: () => sim.clock.now() });
  await rec.source.ready;
  await advanceWatched(sim, 120_000, 1_000, [rec.events]);
  let last = -1;
  for (let i = 0; i < 100; i++) {
    const n = rec.source.load().intervals().length + rec.events();
    if (n === last) break;
    last = n;
    await new Promise((r) => setTimeout(r, 150));
  }
  truth = phantomTruth(sim.logs);
  // the default view: no namespace, no client, no window
  view = await buildIncidents(
    {},
    {
      t,
      history: rec.source,
      now: () => sim.clock.now().getTime(),
      signals: (pods, window) =>
        clientSignals(pods, window, { t, kc, timeoutMs: NO_PROXY_TIMEOUT_FOR_COMPLETENESS }),
    },
  );
}, 90_000);

afterAll(async () => {
  rec?.stop();
  t?.close();
  await sim?.close();
});

describe('incidents on phantom-cross-ns, default view', () => {
  it('has more meshed pods than it reads, and reads the storefront clients first', () => {
    IncidentsViewSchema.parse(view);
    expect(view.clients.chosen).toHaveLength(MAX_CLIENTS);
    expect(view.clients.skipped.length).toBeGreaterThan(0);
    expect(view.clients.source).toMatch(/istio_requests_total on :15090/);
    const first = view.clients.chosen.slice(0, 2);
    expect(first.map((c) => c.pod.split('/')[0])).toEqual(['storefront', 'storefront']);
    expect(first.every((c) => c.reason === 'calls-churn')).toBe(true);
    expect(view.clients.skipped.some((c) => c.pod.startsWith('storefront/'))).toBe(false);
    expect(view.clients.skipped.filter((c) => c.pod.startsWith('shop/')).length).toBeGreaterThan(0);
    expect(view.clients.skipped.find((c) => c.pod.startsWith('shop/'))?.why).toMatch(
      /pods deleted in its namespace/,
    );
  });

  it('shows every 503 of the story, attributed to the shop pod that held the IP', () => {
    expect(truth.length).toBeGreaterThan(10);
    expect(view.totals.shown).toBe(truth.length);
    for (const tr of truth) {
      const row = view.requests.find(
        (r) =>
          r.source === `storefront/${tr.client}` &&
          r.time !== null &&
          Date.parse(r.time) === Date.parse(tr.time) &&
          r.upstreamIp === tr.ip,
      );
      expect(row, `503 at ${tr.time} from ${tr.client}`).toBeDefined();
      expect(row?.pod?.uid).toBe(tr.podUid);
      expect(row?.pod?.namespace).toBe('shop');
      expect(['terminating', 'terminated']).toContain(row?.state);
    }
  });

  it('draws no failure bar before the deletion of the pod its failures were sent to', () => {
    const bars = barSpans(view.chart.buckets, view.chart.bucketMs);
    const deletions = new Map(
      view.chart.markers.filter((m) => m.kind === 'termination').map((m) => [m.pod, m.at]),
    );
    let checked = 0;
    for (const r of view.requests) {
      if (!r.pod || r.time === null || !['terminating', 'terminated'].includes(r.state)) continue;
      const at = deletions.get(podKey(r.pod.namespace, r.pod.name));
      expect(at, `deletion marker of ${r.pod.name}`).toBeDefined();
      const t0 = Date.parse(r.time);
      expect(t0).toBeGreaterThanOrEqual(Date.parse(at ?? ''));
      const bar = bars.find((b) => t0 >= b.fromMs && t0 < b.toMs);
      expect(bar?.total ?? 0).toBeGreaterThan(0);
      expect(bar?.toMs ?? 0).toBeGreaterThan(Date.parse(at ?? ''));
      checked++;
    }
    expect(checked).toBe(truth.length);
    expect(view.chart.bucketMs).toBeLessThanOrEqual(5_000);
  });
});
