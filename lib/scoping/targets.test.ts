import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import type { Pod } from '../kube/types';
import { readFixture } from '../../test-support/fixtures';
import { genericReason, observationWindow, scopingTargets, tally } from './targets';
import { podKey } from '../refs/pod-ref';

const podsOf = (file: string): Pod[] =>
  parseAllDocuments(readFixture('pods', file))
    .map((d) => d.toJS() as Pod)
    .filter((p) => p?.kind === 'Pod');

describe('scopingTargets', () => {
  it('takes injected sidecar pods and says why one cannot be asked', () => {
    const pods = podsOf('injected_pod.yaml');
    expect(pods.length).toBeGreaterThan(0);
    const t = scopingTargets(pods);
    expect(t).toHaveLength(pods.length);
    expect(t[0]?.pod).toBe(pods[0]?.metadata.name);
    // the fixture pod has no status: nothing to ask yet
    if (!pods[0]?.status?.podIP) expect(t[0]?.notRunning).toBe('pod has no IP yet');
  });

  it('skips pods without a proxy (kube-dns) and counts a running proxy start', () => {
    expect(scopingTargets(podsOf('kube-dns_pod_with_status.yaml'))).toEqual([]);
    const pod: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'a-1', namespace: 'shop' },
      spec: { containers: [{ name: 'app' }, { name: 'istio-proxy', args: ['proxy', 'sidecar'] }] },
      status: {
        phase: 'Running',
        podIP: '10.0.0.1',
        containerStatuses: [
          { name: 'app', ready: true, restartCount: 0, state: { running: {} } },
          {
            name: 'istio-proxy',
            ready: true,
            restartCount: 0,
            state: { running: { startedAt: '2026-01-01T00:00:00Z' } },
          },
        ],
      },
    };
    expect(scopingTargets([pod])).toEqual([
      {
        namespace: 'shop',
        pod: 'a-1',
        notRunning: null,
        startedMs: Date.parse('2026-01-01T00:00:00Z'),
      },
    ]);
  });
});

describe('observationWindow', () => {
  it('ignores the freshest 10% of proxies and future starts', () => {
    const now = Date.parse('2026-01-01T12:00:00Z');
    const h = 3600_000;
    const starts = [
      ...Array.from({ length: 18 }, () => now - 5 * h),
      now - 60_000,
      now - 1000,
      now + h,
    ];
    expect(observationWindow(starts, now)).toEqual({
      start: new Date(now - 5 * h).toISOString(),
      end: new Date(now).toISOString(),
    });
    expect(observationWindow([], now)).toBeNull();
  });
});

describe('reasons', () => {
  it('tallies failures with pod names taken out', () => {
    const rs = ['a/p1', 'a/p2', 'b/p3'].map((k) => {
      const [ns, pod] = k.split('/') as [string, string];
      return genericReason(`timeout: port-forward to ${podKey(ns, pod)}:15000 no answer`, ns, pod);
    });
    expect(tally([...rs, 'other'])).toEqual([
      { reason: 'timeout: port-forward to NS/POD:15000 no answer', count: 3 },
      { reason: 'other', count: 1 },
    ]);
  });
});
