import { describe, expect, it } from 'vitest';
import { readFixture } from '../../test-support/fixtures';
import { yamlObjects } from '../../tests/data/protocol/objects';
import type { KubeEvent, Pod } from '../kube/types';
import { AnalysisCache } from './analysis-cache';
import { analyzeHistory, buildPodView } from './fleet-view';
import type { DeletedPodRecord, PodHistory } from './pod-history';
import type { Transition } from './types';

const pod = (file: string): Pod => yamlObjects(readFixture('pods', file))[0] as unknown as Pod;

/** A history of live pods that counts which pods' records were read. */
function historyOf(pods: Pod[]): PodHistory & { read: string[] } {
  const read: string[] = [];
  const note = (p: Pod) => read.push(p.metadata.name);
  return {
    read,
    livePods: () => pods,
    deletedPods: () => [],
    findPod: () => null,
    findIncarnation: () => null,
    transitions: (p: Pod): Transition[] => (note(p), []),
    eventsFor: (p: Pod): KubeEvent[] => (note(p), []),
    revision: (p: Pod) => (note(p), 1),
  };
}

const MESH = { settings: undefined, version: 1, from: 'defaults', errors: [] };

describe('the fleet analysis of a history', () => {
  it('analyses the pods with an istio-proxy and never reads the history of those without', async () => {
    const injected = pod('injected_pod.yaml');
    const dns = pod('kube-dns_pod_with_status.yaml');
    const h = historyOf([dns, injected]);
    const cache = new AnalysisCache();
    const items = await analyzeHistory(h, MESH, cache);
    expect(items.map((a) => a.pod.metadata.name)).toEqual([injected.metadata.name]);
    expect(new Set(h.read)).toEqual(new Set([injected.metadata.name]));
    expect(cache.misses).toBe(1);
    expect(cache.unreadable).toBe(0);
  });

  it('gives the same fleet as analysing every pod and keeping the meshed ones', async () => {
    const pods = [
      'injected_pod.yaml',
      'injected_native-sidecar.yaml',
      'injected_native-sidecar-opt-out.yaml',
      'injected_hello-multiport-metrics.yaml',
      'kube-dns_pod_with_status.yaml',
    ].map(pod);
    const items = await analyzeHistory(historyOf(pods), MESH, new AnalysisCache());
    const every = pods.map((p) => new AnalysisCache().analyze(historyOf([p]), p, MESH, null));
    const meshed = every.filter((a) => a.timeline.mode !== 'none' && a.timeline.mode !== 'ambient');
    expect(items.map((a) => a.row)).toEqual(meshed.map((a) => a.row));
    expect(meshed.length).toBeGreaterThan(0);
    expect(meshed.length).toBeLessThan(pods.length);
  });

  it('counts a meshed pod whose analysis fails as unreadable and goes on', async () => {
    const injected = pod('injected_pod.yaml');
    const odd = { ...injected, metadata: { ...injected.metadata, name: 'odd', uid: 'odd' } };
    const h = historyOf([odd, injected]);
    const failing: PodHistory = {
      ...h,
      transitions: (p: Pod) => {
        if (p.metadata.name === 'odd') throw new Error('a stored transition of an odd shape');
        return h.transitions(p);
      },
    };
    const cache = new AnalysisCache();
    const items = await analyzeHistory(failing, MESH, cache);
    expect(items.map((a) => a.pod.metadata.name)).toEqual([injected.metadata.name]);
    expect(cache.unreadable).toBe(1);
  });
});

describe('one pod of a name that was held by two pods', () => {
  const fixture = pod('injected_pod.yaml');
  const live: Pod = { ...fixture, metadata: { ...fixture.metadata, uid: 'uid-of-the-live-pod' } };
  const { namespace = 'default', name } = live.metadata;
  const earlier: Pod = {
    ...live,
    metadata: { ...live.metadata, uid: 'uid-of-the-earlier-pod', resourceVersion: '1' },
  };
  const gone: DeletedPodRecord = {
    pod: earlier,
    deletedAt: '2026-11-01T10:00:00Z',
    uncertain: false,
  };
  /** The name's live pod, and its deleted predecessor (a StatefulSet's pod recreated). */
  const h: PodHistory = {
    livePods: () => [live],
    deletedPods: () => [gone],
    findPod: (ns, n) => (ns === namespace && n === name ? { pod: live, deleted: null } : null),
    findIncarnation: (ns, n, uid) =>
      ns !== namespace || n !== name
        ? null
        : uid === 'uid-of-the-live-pod'
          ? { pod: live, deleted: null }
          : uid === earlier.metadata.uid
            ? { pod: earlier, deleted: gone }
            : null,
    transitions: () => [],
    eventsFor: () => [],
    revision: () => 1,
  };

  it('is the live pod by name, and the deleted one by its uid', () => {
    const cache = new AnalysisCache();
    const byName = buildPodView(h, namespace, name, MESH, cache);
    expect(byName).toMatchObject({ uid: 'uid-of-the-live-pod', deleted: false });
    const byUid = buildPodView(h, namespace, name, MESH, cache, 'uid-of-the-earlier-pod');
    expect(byUid).toMatchObject({
      uid: 'uid-of-the-earlier-pod',
      deleted: true,
      deletedAt: '2026-11-01T10:00:00Z',
    });
    expect(buildPodView(h, namespace, name, MESH, cache, 'uid-of-the-live-pod')).toMatchObject({
      uid: 'uid-of-the-live-pod',
      deleted: false,
    });
  });

  it('is nothing for a uid no pod of the name had', () => {
    expect(buildPodView(h, namespace, name, MESH, new AnalysisCache(), 'no-such-uid')).toBeNull();
  });

  it("gives the deleted pod no init time scraped after it was gone (the namesake's)", () => {
    const asked: (number | null)[] = [];
    const cache = new AnalysisCache((_pod, goneAt) => (asked.push(goneAt), undefined));
    buildPodView(h, namespace, name, MESH, cache, 'uid-of-the-earlier-pod');
    buildPodView(h, namespace, name, MESH, cache);
    expect(asked).toEqual([Date.parse('2026-11-01T10:00:00Z'), null]);
  });
});
