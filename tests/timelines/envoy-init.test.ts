import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigMap, KubeEvent, Pod } from '../../lib/kube/types';
import { analyzePod } from '../../lib/timeline/analyze';
import { parseMeshConfig } from '../../lib/timeline/meshconfig';
import { ClusterCache } from '../../server/cache/cluster-cache';
import { clearEnvoyInit, envoyInitFor } from '../../server/envoy/init-times';
import { scrapeProxyStats } from '../../server/envoy/scrape';
import { KubeTransport } from '../../server/kube/transport';
import { timelineFleetFrom } from '../../server/services/timelines';
import { startSimulator } from '../../server/sim/index';

/** Envoy's server.initialization_time_ms, scraped from :15090, becomes a proxy-ready source. */
type Sim = Awaited<ReturnType<typeof startSimulator>>;
let sim: Sim;
let t: KubeTransport;
let cache: ClusterCache;

beforeAll(async () => {
  clearEnvoyInit();
  sim = await startSimulator({
    scenario: 'startup-race',
    port: 0,
    clock: { fixed: new Date('2026-11-01T12:00:00Z') },
  });
  const kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfigYaml);
  t = new KubeTransport(kc);
  cache = new ClusterCache(t, kc);
});

afterAll(async () => {
  clearEnvoyInit();
  cache?.stop();
  t?.close();
  await sim?.close();
});

const running = (p: Pod) =>
  [...(p.status?.containerStatuses ?? []), ...(p.status?.initContainerStatuses ?? [])].some(
    (s) => s.name === 'istio-proxy' && s.state?.running,
  );

describe('proxy ready from Envoy init time', () => {
  it('after a :15090 scrape, a pod whose proxy never restarted is judged from start + init time', async () => {
    const before = await timelineFleetFrom(cache);
    expect(before.rows.some((r) => r.proxyReadySource === 'envoy-init')).toBe(false);

    const pods = sim.store.list<Pod>('pods').filter(running);
    expect(pods.length).toBeGreaterThan(5);
    for (const p of pods) {
      const out = await scrapeProxyStats(
        t,
        p.metadata.namespace ?? 'default',
        p.metadata.name,
        5_000,
      );
      expect(out.ok, p.metadata.name).toBe(true);
    }
    const after = await timelineFleetFrom(cache);
    const fromInit = after.rows.filter((r) => r.proxyReadySource === 'envoy-init');
    expect(fromInit.length).toBeGreaterThan(0);

    // each such row says what lib/timeline says with the same init time
    const cm = sim.store.list<ConfigMap>('configmaps').find((c) => c.metadata.name === 'istio');
    const mesh = cm ? parseMeshConfig(JSON.stringify(cm)).settings : undefined;
    const events = sim.store.list<KubeEvent>('events');
    for (const row of fromInit) {
      const pod = pods.find((p) => p.metadata.uid === row.uid);
      expect(pod).toBeDefined();
      const init = envoyInitFor(pod as Pod);
      expect(init).toBeGreaterThan(0);
      const want = analyzePod(pod as Pod, {
        ...(mesh ? { mesh } : {}),
        events,
        envoyInitMs: { [row.uid ?? '']: init as number },
      });
      expect(want.proxyReady.source).toBe('envoy-init');
      expect(row.gapMs).toBe(want.gapMs);
      expect(row.verdicts).toEqual(want.verdicts.map((v) => v.verdict));
      // the simulated Envoy's init time agrees with its readiness probes: same verdicts
      expect(row.verdicts, row.name).toEqual(before.rows.find((r) => r.uid === row.uid)?.verdicts);
    }
  });

  it('an init time scraped before the proxy (re)started is not used for the new run', () => {
    const pod = sim.store.list<Pod>('pods').filter(running)[0] as Pod;
    expect(envoyInitFor(pod)).toBeDefined();
    const later = structuredClone(pod);
    for (const s of [
      ...(later.status?.containerStatuses ?? []),
      ...(later.status?.initContainerStatuses ?? []),
    ])
      if (s.name === 'istio-proxy' && s.state?.running)
        s.state.running.startedAt = new Date(Date.parse('2027-01-01T00:00:00Z')).toISOString();
    expect(envoyInitFor(later)).toBeUndefined();
  });
});
