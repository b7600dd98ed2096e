import { describe, expect, it } from 'vitest';
import { readFixture } from '../../test-support/fixtures';
import { yamlObjects } from '../../tests/data/protocol/objects';
import { proxyStartedAt } from '../../lib/dataplane/proxy-container';
import type { Pod } from '../../lib/kube/types';
import { EnvoyInitTimes } from './init-times';

const injected = yamlObjects(readFixture('pods', 'injected_pod.yaml'))[0] as unknown as Pod;
/** A real injected pod (a native sidecar; the fixture has no status), its proxy running since 10:00. */
const pod: Pod = {
  ...injected,
  status: {
    phase: 'Running',
    initContainerStatuses: [
      {
        name: 'istio-proxy',
        ready: true,
        restartCount: 0,
        state: { running: { startedAt: '2026-11-01T10:00:00Z' } },
      },
    ],
  },
} as Pod;
const histogram = (sum: number) => ({
  initializationTimeMs: { count: 1, sum, mean: sum, p50: null },
});

describe('EnvoyInitTimes', () => {
  const started = proxyStartedAt(pod);
  const ns = pod.metadata.namespace ?? 'default';

  it('offers a scrape to the pod whose proxy ran when it was taken', () => {
    if (started === null) throw new Error('the fixture pod has no running istio-proxy');
    const t = new EnvoyInitTimes();
    t.note(ns, pod.metadata.name, histogram(850), started + 60_000);
    expect(t.for(pod)).toBe(850);
    // a proxy started after the scrape is another run
    const t2 = new EnvoyInitTimes();
    t2.note(ns, pod.metadata.name, histogram(850), started - 1);
    expect(t2.for(pod)).toBeUndefined();
  });

  it("gives a deleted pod no scrape taken after it was seen gone: the name's next pod's", () => {
    if (started === null) throw new Error('the fixture pod has no running istio-proxy');
    const t = new EnvoyInitTimes();
    t.note(ns, pod.metadata.name, histogram(850), started + 60_000);
    expect(t.for(pod, started + 30_000)).toBeUndefined();
    expect(t.for(pod, started + 60_000)).toBe(850);
    expect(t.for(pod, started + 90_000)).toBe(850);
  });
});
