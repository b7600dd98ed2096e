/**
 * The fleet's staleness from istiod's syncz, through the Proxies scan on the simulator: in
 * phantom-503-slow-ack one checkout proxy ACKs each push 20 s late, so while a rollout pushes it
 * is the one proxy whose EDS waits on an ACK, and the age of its sent nonce is the time since the
 * push that nonce names.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FleetViewSchema } from '../../lib/api/proxies';
import type { Pod } from '../../lib/kube/types';
import { podKeyOfObject } from '../../lib/refs/pod-ref';
import { KubeTransport } from '../../server/kube/transport';
import { scanFleet, type ScanDeps } from '../../server/screens/proxies/scan';
import { startSimulator, type RunningSimulator } from '../../server/sim/index';
import {
  NO_DEADLINE_FOR_COMPLETENESS,
  NO_PROXY_TIMEOUT_FOR_COMPLETENESS,
} from '../../test-support/deadlines';

let sim: RunningSimulator;
let deps: ScanDeps;

beforeAll(async () => {
  sim = await startSimulator({
    scenario: 'phantom-503-slow-ack',
    port: 0,
    clock: { fixed: new Date('2026-11-01T12:00:00Z') },
  });
  const kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfigYaml);
  deps = {
    transport: new KubeTransport(kc),
    kc,
    istioNamespace: 'istio-system',
    concurrency: 8,
    timeoutMs: NO_PROXY_TIMEOUT_FOR_COMPLETENESS,
    deadlineMs: NO_DEADLINE_FOR_COMPLETENESS,
    syncGraceMs: NO_DEADLINE_FOR_COMPLETENESS,
  };
});

afterAll(async () => {
  deps?.transport.close();
  await sim?.close();
});

describe('proxy staleness from syncz', () => {
  it('ranks the one proxy slow to ACK, with the age of the push its EDS nonce waits on', async () => {
    // the rollout's first pod goes at +25 s; 30 s in, the slow proxy has not ACKed it
    sim.clock.advance(30_000);
    const fleet = FleetViewSchema.parse(await scanFleet(deps));
    const s = fleet.sync.staleness;
    if (s === null) throw new Error('no staleness ranking');
    const checkout = sim.store
      .list<Pod>('pods')
      .filter((p) => p.metadata.labels?.app === 'checkout')
      .map(podKeyOfObject)
      .sort();
    expect(s.proxies).toBeGreaterThan(10);
    const slow = s.top.find((p) => p.proxy === checkout[1]);
    expect(slow, `the slow checkout proxy ${checkout[1]} among the stale`).toBeDefined();
    expect(s.top.some((p) => p.proxy === checkout[0])).toBe(false);
    // the others are new pods whose proxy is not ready yet: never acknowledged, by every type
    for (const p of s.top.filter((x) => x !== slow))
      expect(Object.values(p.types).map((t) => t.state)).toEqual(
        Array(4).fill('STALE (Never Acknowledged)'),
      );
    const eds = slow?.types.EDS;
    expect(eds?.state).toBe('STALE');
    // sent with a push of the last 20 s (its version names the second), not yet ACKed
    expect(eds?.ageMs).toBeGreaterThanOrEqual(0);
    expect(eds?.ageMs).toBeLessThanOrEqual(20_000);
    expect(slow?.types.CDS?.state).toBe('SYNCED');
    expect(slow?.overThreshold).toBe(false);
  }, 60_000);
});
