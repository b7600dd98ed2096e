import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FleetProgress } from '../../lib/api/proxies';
import { FleetViewSchema } from '../../lib/api/proxies';
import { startSimulator, type RunningSimulator } from '../../server/sim/index';
import { KubeTransport } from '../../server/kube/transport';
import { scanFleet, type ScanDeps } from '../../server/screens/proxies/scan';
import type { DestinationRule, Service, ServiceEntry, Sidecar } from '../../lib/kube/types';
import { expectedActive, type RawMesh } from '../scoping/istio-rules';
import { meshedPods, simClusterNames } from './sim-truth';
import { podKeyOfObject } from '../../lib/refs/pod-ref';
import {
  NO_DEADLINE_FOR_COMPLETENESS,
  NO_PROXY_TIMEOUT_FOR_COMPLETENESS,
} from '../../test-support/deadlines';

/** The objects as stored, for counts worked out independently of lib/scoping and the sim's model. */
function rawMesh(s: RunningSimulator): RawMesh {
  return {
    services: s.store.list<Service>('services'),
    serviceEntries: s.store.list<ServiceEntry>('serviceentries'),
    destinationRules: s.store.list<DestinationRule>('destinationrules'),
    sidecars: s.store.list<Sidecar>('sidecars'),
    rootNamespace: 'istio-system',
  };
}

/** The held proxy's answer comes after the scan gave up on it, whatever the machine. */
const SLOW_PROXY_HELD_MS = 10 * 60_000;
/** The scan's per-proxy timeout in the slow-and-dead test: see there. */
const PROXY_TIMEOUT_MS = 20_000;
let sim: RunningSimulator;
let deps: ScanDeps;

beforeAll(async () => {
  sim = await startSimulator({
    scenario: 'demo',
    port: 0,
    clock: { fixed: new Date('2026-11-01T12:00:00Z') },
    api: { dialTimeoutMs: 300 },
  });
  const kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfigYaml);
  deps = {
    transport: new KubeTransport(kc),
    kc,
    istioNamespace: 'istio-system',
    concurrency: 8,
    // the tests below expect every proxy read and istiod's sync state in: no timeout, deadline
    // or grace a busy machine can miss (the slow-proxy test sets its own timeout)
    timeoutMs: NO_PROXY_TIMEOUT_FOR_COMPLETENESS,
    deadlineMs: NO_DEADLINE_FOR_COMPLETENESS,
    syncGraceMs: NO_DEADLINE_FOR_COMPLETENESS,
  };
});

afterAll(async () => {
  deps?.transport.close();
  await sim?.close();
});

describe('fleet scan through the simulator', () => {
  it('reports every proxy with the cluster count the simulator serves', async () => {
    const progress: FleetProgress[] = [];
    const fleet = FleetViewSchema.parse(await scanFleet(deps, (p) => progress.push(p)));
    const pods = meshedPods(sim);
    expect(fleet.rows.length).toBe(pods.length);
    expect(pods.length).toBeGreaterThan(3);
    let checked = 0;
    for (const pod of pods) {
      const row = fleet.rows.find((r) => r.key === podKeyOfObject(pod));
      expect(row, pod.metadata.name).toBeDefined();
      if (row?.status !== 'ok') continue;
      const names = simClusterNames(sim, pod);
      expect(row.activeClusters, row.key).toBe(names.length);
      expect(row.activeClusters, row.key).toBe(expectedActive(pod, rawMesh(sim)));
      // the derived service count equals the Istio-named clusters of the dump
      expect(row.serviceClustersEstimate, row.key).toBe(
        names.filter((n) => n.includes('|')).length,
      );
      checked++;
    }
    expect(checked).toBeGreaterThan(3);
    const read = fleet.rows.filter((r) => r.status === 'ok');
    const sum = read.reduce((a, r) => a + (r.activeClusters ?? 0), 0);
    expect(fleet.totals.clusters).toEqual({
      value: sum,
      known: read.length,
      unknown: fleet.rows.filter((r) => r.status !== 'ok' && r.status !== 'not-running').length,
    });
    // progress went from 0 to all, one step per proxy
    expect(progress[0]?.done).toBe(0);
    expect(progress.at(-1)).toMatchObject({ done: pods.length, total: pods.length });
    expect(progress.length).toBe(pods.length + 1);
  });

  it('reads sync state from istiod and the Sidecar that selects each proxy', async () => {
    const fleet = await scanFleet(deps);
    expect(fleet.sync.istiods).toBeGreaterThan(0);
    expect(fleet.sync.available).toBe(true);
    const ok = fleet.rows.filter((r) => r.status === 'ok');
    expect(ok.filter((r) => r.sync !== null).length).toBe(ok.length);
    // unscoped first in the ranking, and namespaces with unscoped proxies first
    const firstScoped = fleet.rows.findIndex((r) => r.sidecar !== null);
    const lastUnscopedOk = fleet.rows.findLastIndex((r) => r.sidecar === null && r.status === 'ok');
    if (firstScoped >= 0 && lastUnscopedOk >= 0) expect(lastUnscopedOk).toBeLessThan(firstScoped);
    const firstScopedNs = fleet.namespaces.findIndex((n) => !n.unscoped);
    const lastUnscopedNs = fleet.namespaces.findLastIndex((n) => n.unscoped);
    if (firstScopedNs >= 0) expect(lastUnscopedNs).toBeLessThan(firstScopedNs);
  });

  it('a slow and an unreachable proxy neither stall nor spoil the rest', async () => {
    const pods = meshedPods(sim).filter((p) => p.status?.podIP && !p.metadata.deletionTimestamp);
    const [dead, slow] = pods.map((p) => podKeyOfObject(p));
    expect(dead && slow).toBeTruthy();
    sim.faults.unreachablePods.add(dead as string);
    sim.faults.slowPods.set(slow as string, SLOW_PROXY_HELD_MS);
    try {
      // the slow proxy answers after 10 min: a scan it stalled would read it as ok by then.
      // The API server gives up dialling the dead one after 2 s and says so (503): unreachable.
      // The slow one leaves meshdx without any answer: it cannot tell the proxy from the API
      // server, so its figures are unknown, not the proxy unreachable. The scan's timeout is
      // far past the dead one's 2 s and every live answer, however loaded the machine (with 3 s,
      // a loaded machine could read a live proxy or the dead one's 503 as no answer).
      const fleet = await scanFleet({ ...deps, timeoutMs: PROXY_TIMEOUT_MS });
      const deadRow = fleet.rows.find((r) => r.key === dead);
      const slowRow = fleet.rows.find((r) => r.key === slow);
      expect(deadRow?.status).toBe('unreachable');
      expect(deadRow?.activeClusters).toBeNull();
      expect(deadRow?.reason).toMatch(/i\/o timeout/);
      expect(slowRow?.status).toBe('unknown');
      expect(slowRow?.activeClusters).toBeNull();
      expect(slowRow?.reason).toMatch(/^no answer through the API server in time \(timeout/);
      const others = fleet.rows.filter(
        (r) => r.key !== dead && r.key !== slow && r.status === 'ok',
      );
      for (const r of others) {
        const pod = pods.find((p) => podKeyOfObject(p) === r.key);
        if (pod) expect(r.activeClusters).toBe(simClusterNames(sim, pod).length);
      }
      expect(fleet.totals.unreachable).toBe(
        fleet.rows.filter((r) => r.status === 'unreachable').length,
      );
      expect(fleet.totals.unreachable).toBeGreaterThanOrEqual(1);
      expect(fleet.totals.clusters.unknown).toBeGreaterThanOrEqual(2);
    } finally {
      sim.faults.unreachablePods.clear();
      sim.faults.slowPods.clear();
    }
  });
});
