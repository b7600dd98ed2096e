import { describe, expect, it } from 'vitest';
import type { Scenario } from '../world/types';
import {
  phantomSlowAck,
  phantomSlowPush,
  phantomSlowSlices,
  phantomTruth,
  type PhantomTruth,
} from './phantom-503';
import { phantomSlowZtunnel } from './phantom-ambient';
import { harness } from './testing/fakes';

/** Per deleted pod and client: how long the client kept failing on it (first to last 503). */
function windows(scenario: Scenario): {
  truth: readonly PhantomTruth[];
  spans: Map<string, number>;
} {
  const h = harness(scenario.name);
  scenario.start(h.ctx);
  h.clock.advance(120_000);
  const truth = phantomTruth(h.logs);
  const first = new Map<string, number>();
  const last = new Map<string, number>();
  for (const t of truth) {
    const k = `${t.podName} ${t.client}`;
    const at = Date.parse(t.time);
    if (!first.has(k)) first.set(k, at);
    last.set(k, at);
  }
  const spans = new Map<string, number>();
  for (const [k, f] of first) spans.set(k, (last.get(k) ?? f) - f);
  return { truth, spans };
}

describe('phantom-503 with one slow layer: the clients fail exactly as long as that layer holds', () => {
  it('a slow EndpointSlice controller (5 s): every client fails on each deleted pod for 5 s', () => {
    const { truth, spans } = windows(phantomSlowSlices);
    expect(truth.length).toBeGreaterThan(20);
    // requests go out once a second: 5 s of lag is 5 seconds of 503s after the first one
    for (const [k, span] of spans) expect(span, k).toBe(5000);
  });

  it('a slow istiod push (8 s after its 100 ms debounce): every client fails for 8 s', () => {
    const { spans } = windows(phantomSlowPush);
    for (const [k, span] of spans) expect(span, k).toBe(8000);
  });

  it('one proxy slow to ACK (20 s): that client fails for 20 s, the other for under a second', () => {
    const { truth, spans } = windows(phantomSlowAck);
    const clients = [...new Set(truth.map((t) => t.client))].sort();
    expect(clients.length).toBe(2);
    const slowSpans = [...spans];
    const long = slowSpans.filter(([, s]) => s >= 20_000);
    const short = slowSpans.filter(([, s]) => s === 0);
    expect(long.length + short.length).toBe(spans.size);
    // one client is the slow one on every pod, the other never is
    const slowClient = new Set(long.map(([k]) => k.split(' ')[1]));
    expect(slowClient.size).toBe(1);
    expect(new Set(short.map(([k]) => k.split(' ')[1])).size).toBe(1);
  });

  it("ambient, ztunnels 12 s late: every client fails on each deleted pod for 12 s, logged by its node's ztunnel", () => {
    const { truth, spans } = windows(phantomSlowZtunnel);
    expect(truth.length).toBeGreaterThan(20);
    for (const [k, span] of spans) expect(span, k).toBe(12_000);
    // the lines are ztunnel's, at error level with the connection's error
    for (const t of truth)
      expect(t.line).toMatch(/\terror\taccess\tconnection complete\t.*error="io error/);
  });

  it('a rollout through the API (kubectl rollout restart): its deleted pods fail while the slow client still holds them', async () => {
    const h = harness(phantomSlowAck.name);
    phantomSlowAck.start(h.ctx);
    // past the story's own rollout and scale-down, and the slow client's 20 s ACK
    h.clock.advance(130_000);
    const before = new Set(phantomTruth(h.logs).map((t) => t.podName));
    const dep = [...h.store.objects.values()].find(
      (o) =>
        o.kind === 'Deployment' &&
        o.metadata.namespace === 'shop' &&
        o.metadata.name === 'payments',
    ) as {
      spec: { template: { metadata: { annotations?: Record<string, string> } } };
    } & Parameters<typeof h.store.upsert>[1];
    const restarted = structuredClone(dep);
    restarted.spec.template.metadata.annotations = {
      ...restarted.spec.template.metadata.annotations,
      'kubectl.kubernetes.io/restartedAt': h.clock.now().toISOString(),
    };
    h.store.upsert('deployments', restarted);
    await new Promise((r) => setTimeout(r, 0));
    h.clock.advance(60_000);
    const fresh = phantomTruth(h.logs).filter((t) => !before.has(t.podName));
    // the five payments pods the controller replaced: the slow client fails on each for 20 s,
    // the other only in the instant of its deletion (one request)
    expect(new Set(fresh.map((t) => t.podName)).size).toBe(5);
    const perPair = new Map<string, number>();
    for (const t of fresh)
      perPair.set(`${t.podName} ${t.client}`, (perPair.get(`${t.podName} ${t.client}`) ?? 0) + 1);
    const counts = [...perPair.values()].sort((a, b) => a - b);
    // a request a second from its deletion to its ACK 20 s later, both ends counted
    expect(counts).toEqual([1, 1, 1, 1, 1, 21, 21, 21, 21, 21]);
  });
});
