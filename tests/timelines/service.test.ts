import { describe, expect, it } from 'vitest';
import type { ConfigMap, KubeEvent, Pod } from '../../lib/kube/types';
import { analyzePods } from '../../lib/timeline/analyze';
import { summarizeFleet } from '../../lib/timeline/fleet';
import { parseMeshConfig } from '../../lib/timeline/meshconfig';
import { podTimelineFrom, timelineFleetFrom } from '../../server/screens/timelines/timelines';
import { simClient } from '../../test-support/simulator';
import { podKey } from '../../lib/refs/pod-ref';
import { inTimelinesFleet } from '../../lib/timeline/fleet-view';

const c = simClient('startup-race');
/** The runtime's history store, which its one pod feed fills with the cache. */
const history = () => ({ store: c.runtime.store });

/** What lib/timeline says about the simulator's pods, computed here from the sim's own store. */
function expected() {
  const pods = c.sim.store.list<Pod>('pods');
  const cm = c.sim.store.list<ConfigMap>('configmaps').find((c) => c.metadata.name === 'istio');
  const mesh = cm ? parseMeshConfig(JSON.stringify(cm)).settings : undefined;
  const events = c.sim.store.list<KubeEvent>('events');
  const timelines = analyzePods(pods, { ...(mesh ? { mesh } : {}), events });
  return timelines.filter(inTimelinesFleet);
}

describe('Timelines use case against the simulator over HTTP', () => {
  it('gives every meshed pod the verdicts lib/timeline gives the same pods', async () => {
    const fleet = await timelineFleetFrom(c.cache, history());
    const want = expected();
    expect(want.length).toBeGreaterThan(10);
    expect(fleet.rows).toHaveLength(want.length);
    expect(fleet.byVerdict).toEqual(summarizeFleet(want).byVerdict);
    const byName = new Map(want.map((w) => [podKey(w.namespace, w.name), w]));
    for (const row of fleet.rows) {
      const w = byName.get(podKey(row.namespace, row.name));
      expect(w, row.name).toBeDefined();
      expect(row.verdicts).toEqual(w!.verdicts.map((v) => v.verdict));
      expect(row.gapMs).toBe(w!.gapMs);
      expect(row.mode).toBe(w!.mode);
    }
    expect(fleet.byVerdict.race).toBeGreaterThan(0);
    expect(fleet.mesh.from).toBe('configmap');
  });

  it('lists a racing workload with its fix', async () => {
    const fleet = await timelineFleetFrom(c.cache, history());
    const racing = fleet.rows.filter((r) => r.verdicts.includes('race'));
    const names = new Set(racing.map((r) => r.workload));
    expect(
      fleet.fixes
        .filter((f) => f.verdict === 'race')
        .map((f) => f.name)
        .sort(),
    ).toEqual([...names].sort());
    const first = racing[0]!;
    const fix = fleet.fixes.find((f) => f.verdict === 'race' && f.name === first.workload);
    expect(fix?.fixes[0]?.yaml).toContain('holdApplicationUntilProxyStarts');
    expect(fix?.pods).toBe(racing.filter((r) => r.workload === first.workload).length);
  });

  it('builds a Gantt for a racing pod with the proxy-ready moment', async () => {
    const fleet = await timelineFleetFrom(c.cache, history());
    const row = fleet.rows.find((r) => r.verdicts.includes('race'));
    expect(row).toBeDefined();
    const view = await podTimelineFrom(c.cache, history(), row!.namespace, row!.name);
    expect(view.gantt.rows.map((r) => r.container)).toContain('istio-proxy');
    expect(view.gantt.rows.every((r) => r.segments.length > 0)).toBe(true);
    expect(view.verdicts.map((v) => v.verdict)).toEqual(row!.verdicts);
    expect(view.gapMs).toBe(row!.gapMs);
    expect(view.gapMs).toBeLessThan(0);
  });

  it('keeps a deleted pod listed, marked deleted, with its timeline', async () => {
    const fleet = await timelineFleetFrom(c.cache, history());
    const victim = fleet.rows.find((r) => r.verdicts.includes('race') && !r.deleted)!;
    c.sim.store.remove('pods', victim.namespace, victim.name);
    let after = fleet;
    for (let i = 0; i < 100 && !after.rows.find((r) => r.name === victim.name)?.deleted; i++) {
      await new Promise((r) => setTimeout(r, 20));
      after = await timelineFleetFrom(c.cache, history());
    }
    const row = after.rows.find((r) => r.name === victim.name);
    expect(row?.deleted).toBe(true);
    expect(row?.phase).toBe('Deleted');
    expect(row?.verdicts).toEqual(victim.verdicts);
    expect(after.rows).toHaveLength(fleet.rows.length);
    expect(after.cache.deletedPods).toBe(1);
    const view = await podTimelineFrom(c.cache, history(), victim.namespace, victim.name);
    expect(view.deleted).toBe(true);
    expect(view.gapMs).toBe(victim.gapMs);
  });

  it('answers 404 for a pod it never saw and 400 for a bad name', async () => {
    await expect(
      podTimelineFrom(c.cache, history(), 'race-lab', 'no-such-pod'),
    ).rejects.toMatchObject({
      status: 404,
    });
    await expect(podTimelineFrom(c.cache, history(), 'Bad_NS', 'x')).rejects.toThrow(/namespace/);
  });
});
