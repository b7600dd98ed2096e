import { describe, expect, it } from 'vitest';
import type { ConfigMap, KubeEvent, Pod } from '../../lib/kube/types';
import { analyzePod } from '../../lib/timeline/analyze';
import { parseMeshConfig } from '../../lib/timeline/meshconfig';
import { scrapeProxyStats } from '../../server/envoy/scrape';
import { timelineFleetOf } from '../../server/screens/timelines/timelines';
import { simClient } from '../../test-support/simulator';

/** Envoy's server.initialization_time_ms, scraped from :15090, becomes a proxy-ready source. */
const c = simClient('startup-race');

const running = (p: Pod) =>
  [...(p.status?.containerStatuses ?? []), ...(p.status?.initContainerStatuses ?? [])].some(
    (s) => s.name === 'istio-proxy' && s.state?.running,
  );

describe('proxy ready from Envoy init time', () => {
  it('after a :15090 scrape, a pod whose proxy never restarted is judged from start + init time', async () => {
    const before = await timelineFleetOf(c.runtime);
    expect(before.rows.some((r) => r.proxyReadySource === 'envoy-init')).toBe(false);

    const pods = c.sim.store.list<Pod>('pods').filter(running);
    expect(pods.length).toBeGreaterThan(5);
    for (const p of pods) {
      const out = await scrapeProxyStats(
        c.t,
        p.metadata.namespace ?? 'default',
        p.metadata.name,
        5_000,
        c.runtime.envoyInit,
      );
      expect(out.ok, p.metadata.name).toBe(true);
    }
    const after = await timelineFleetOf(c.runtime);
    const fromInit = after.rows.filter((r) => r.proxyReadySource === 'envoy-init');
    expect(fromInit.length).toBeGreaterThan(0);

    // each such row says what lib/timeline says with the same init time
    const cm = c.sim.store.list<ConfigMap>('configmaps').find((c) => c.metadata.name === 'istio');
    const mesh = cm ? parseMeshConfig(JSON.stringify(cm)).settings : undefined;
    const events = c.sim.store.list<KubeEvent>('events');
    for (const row of fromInit) {
      const pod = pods.find((p) => p.metadata.uid === row.uid);
      expect(pod).toBeDefined();
      const init = c.runtime.envoyInit.for(pod as Pod);
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
    const pod = c.sim.store.list<Pod>('pods').filter(running)[0] as Pod;
    expect(c.runtime.envoyInit.for(pod)).toBeDefined();
    const later = structuredClone(pod);
    for (const s of [
      ...(later.status?.containerStatuses ?? []),
      ...(later.status?.initContainerStatuses ?? []),
    ])
      if (s.name === 'istio-proxy' && s.state?.running)
        s.state.running.startedAt = new Date(Date.parse('2027-01-01T00:00:00Z')).toISOString();
    expect(c.runtime.envoyInit.for(later)).toBeUndefined();
  });
});
