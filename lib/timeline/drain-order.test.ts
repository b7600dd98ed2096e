/**
 * The drain order at deletion and its verdicts. The native pod is the injector's own golden
 * output (../shared/fixtures/pods/injected_native-sidecar.yaml: a native istio-proxy with the
 * preStop `pilot-agent request POST drain`), given the shutdown istio#60649's reproduction
 * reports: `kubectl delete` at 01:32:46 (2026-06-22), the app's SIGTERM at 01:32:46.49, the
 * proxy's "starting drain" at 01:32:46.54, the app's exit 5 s later at 01:32:51.49 (the statuses
 * are written from those log times, second resolution: not a real status).
 */
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { analyzePod } from './analyze';
import { drainOrder } from './drain-order';
import { detectMode } from './mode';
import { buildPod } from '../../tests/data/timeline/builders';
import { readFixture } from '../../test-support/fixtures';
import type { Namespace, Pod } from '../kube/types';
import type { TerminationFailures } from '../incidents/pod-failures';

function goldenNative(): Pod {
  const pod = parseAllDocuments(readFixture('pods', 'injected_native-sidecar.yaml'))
    .map((d) => d.toJS() as Pod)
    .find((d) => d?.kind === 'Pod');
  if (!pod) throw new Error('the injector golden output has no Pod');
  return pod;
}

/** The golden pod deleted as in istio#60649 (grace 30 s, the app exits 5 s after SIGTERM). */
function deletedAsIn60649(appExit = '2026-06-22T01:32:51Z'): Pod {
  const pod = goldenNative();
  return {
    ...pod,
    metadata: {
      ...pod.metadata,
      namespace: 'default',
      uid: 'uid-hello',
      deletionTimestamp: '2026-06-22T01:33:16Z',
      deletionGracePeriodSeconds: 30,
    },
    status: {
      phase: 'Running',
      containerStatuses: [
        {
          name: 'hello',
          ready: false,
          restartCount: 0,
          state: {
            terminated: {
              startedAt: '2026-06-22T01:00:00Z',
              finishedAt: appExit,
              exitCode: 0,
              reason: 'Completed',
            },
          },
        },
      ],
      initContainerStatuses: [
        {
          name: 'istio-init',
          ready: true,
          restartCount: 0,
          state: {
            terminated: {
              startedAt: '2026-06-22T00:59:58Z',
              finishedAt: '2026-06-22T00:59:58Z',
              exitCode: 0,
            },
          },
        },
        {
          name: 'istio-proxy',
          ready: false,
          restartCount: 0,
          state: {
            terminated: {
              startedAt: '2026-06-22T00:59:59Z',
              finishedAt: '2026-06-22T01:32:52Z',
              exitCode: 0,
            },
          },
        },
      ],
    },
  };
}

const NONE: TerminationFailures = {
  count: 0,
  toTerminating: 0,
  toGone: 0,
  lastAfterDeletionMs: null,
};

describe('drain order of a native sidecar with the injector drain preStop (istio#60649)', () => {
  it('drains at the deletion start while the app serves its 5 s, in order', () => {
    const pod = deletedAsIn60649();
    const order = drainOrder(pod, detectMode(pod), NONE);
    expect(order?.drainStart).toBe('native-prestop');
    const at = Object.fromEntries((order?.steps ?? []).map((s) => [s.what, s.afterDeletionMs]));
    expect(at).toEqual({
      deletion: 0,
      'app-sigterm': 0,
      'proxy-drain': 0,
      'app-exit': 5000,
      'proxy-exit': 6000,
      'last-failure': null,
    });
    expect(order?.steps.find((s) => s.what === 'deletion')?.at).toBe('2026-06-22T01:32:46.000Z');
    expect(order?.drainWhileAppServesMs).toBe(5000);
    expect(order?.exitOnZero).toBe(false);
    expect(order?.steps.find((s) => s.what === 'last-failure')?.unknown).toBe(
      'no failing request recorded against the termination',
    );
  });

  it('is MDX0118 of medium confidence without failures, high with failures while terminating', () => {
    const pod = deletedAsIn60649();
    const exposed = analyzePod(pod, { terminationFailures: NONE }).verdicts.find(
      (v) => v.verdict === 'native-drain-at-deletion',
    );
    expect(exposed?.code).toBe('MDX0118');
    expect(exposed?.confidence).toBe('medium');
    expect(exposed?.evidence).toMatchObject({ harm: 'exposure only', drainWhileAppServesMs: 5000 });
    expect(exposed?.fixes[0]?.yaml).toContain('POST, drain');
    const harmed = analyzePod(pod, {
      terminationFailures: { count: 3, toTerminating: 3, toGone: 0, lastAfterDeletionMs: 4200 },
    }).verdicts.find((v) => v.verdict === 'native-drain-at-deletion');
    expect(harmed?.confidence).toBe('high');
    expect(harmed?.evidence).toMatchObject({ failedToTerminating: 3, issue: 'istio#60649' });
    // no classic drain verdict for a native sidecar
    expect(analyzePod(pod).verdicts.map((v) => v.verdict)).not.toContain('drain-too-short');
  });

  it('says nothing of a live pod, nor of an app that exited with the drain', () => {
    const live = goldenNative();
    expect(drainOrder(live, detectMode(live), null)?.steps[0]?.unknown).toBe(
      'the pod has not been deleted',
    );
    expect(analyzePod(live).verdicts.map((v) => v.verdict)).not.toContain(
      'native-drain-at-deletion',
    );
    const quick = deletedAsIn60649('2026-06-22T01:32:46Z');
    expect(analyzePod(quick).verdicts.map((v) => v.verdict)).not.toContain(
      'native-drain-at-deletion',
    );
  });

  it('a native sidecar without the drain preStop drains once the apps have exited', () => {
    const pod = buildPod({
      mode: 'native',
      apps: [
        { name: 'app', startedAt: 2, terminated: { startedAt: 2, finishedAt: 108, exitCode: 0 } },
      ],
      proxy: { startedAt: 1, terminated: { startedAt: 1, finishedAt: 109, exitCode: 0 } },
      deletion: { at: 100, grace: 30 },
    });
    const order = drainOrder(pod, detectMode(pod), null);
    expect(order?.drainStart).toBe('native-after-apps');
    expect(order?.steps.find((s) => s.what === 'proxy-drain')?.afterDeletionMs).toBe(8000);
    expect(order?.steps.find((s) => s.what === 'last-failure')?.unknown).toBe(
      'the failure store was not read',
    );
    expect(analyzePod(pod).verdicts.map((v) => v.verdict)).not.toContain(
      'native-drain-at-deletion',
    );
  });

  it('a classic sidecar drains at SIGTERM, after its own preStop', () => {
    const pod = buildPod({
      mode: 'classic',
      apps: [{ name: 'app', startedAt: 5, preStopSleep: 10 }],
      proxy: { startedAt: 3, preStopSleep: 3 },
      deletion: { at: 100, grace: 30 },
    });
    const order = drainOrder(pod, detectMode(pod), null);
    expect(order?.drainStart).toBe('classic-sigterm');
    const at = Object.fromEntries((order?.steps ?? []).map((s) => [s.what, s.afterDeletionMs]));
    expect(at['app-sigterm']).toBe(10_000);
    expect(at['proxy-drain']).toBe(3000);
    expect(order?.drainWhileAppServesMs).toBeNull();
  });
});

describe('an ambient pod at deletion (istio#58514)', () => {
  const ns: Namespace = {
    metadata: { name: 'shop', labels: { 'istio.io/dataplane-mode': 'ambient' } },
  };
  const ambientPod = (preStopSleep?: number) =>
    buildPod({
      mode: 'none',
      apps: [
        {
          name: 'app',
          startedAt: 2,
          ...(preStopSleep !== undefined ? { preStopSleep } : {}),
          terminated: { startedAt: 2, finishedAt: 101, exitCode: 0 },
        },
      ],
      deletion: { at: 100, grace: 30 },
      grace: 30,
      owner: { replicaSet: 'web-7d9f8b6c5d', hash: '7d9f8b6c5d' },
    });

  it('has the ztunnels hold the workload: no proxy drain, the last failure after the deletion', () => {
    const pod = ambientPod();
    const f: TerminationFailures = {
      count: 4,
      toTerminating: 1,
      toGone: 3,
      lastAfterDeletionMs: 6300,
    };
    const t = analyzePod(pod, { namespaces: [ns], terminationFailures: f });
    expect(t.mode).toBe('ambient');
    expect(t.drainOrder?.drainStart).toBe('ztunnel');
    expect(t.drainOrder?.exitOnZero).toBeNull();
    expect(t.drainOrder?.steps.map((s) => s.what)).toEqual([
      'deletion',
      'app-sigterm',
      'app-exit',
      'last-failure',
    ]);
    expect(t.drainOrder?.steps.at(-1)?.afterDeletionMs).toBe(6300);
    const v = t.verdicts.find((x) => x.verdict === 'ambient-gone-before-ztunnel');
    expect(v?.code).toBe('MDX0119');
    expect(v?.evidence).toMatchObject({ failedRequests: 4, failedToGone: 3, issue: 'istio#58514' });
    // 6.3 s after the deletion, plus 2 s: an 9 s sleep, and the grace period on top of it
    expect(v?.needs).toEqual({
      proxyConfig: {},
      graceSeconds: 39,
      preStopSleepSeconds: { app: 9 },
    });
    const yaml = v?.fixes[0]?.yaml ?? '';
    expect(yaml).toContain('--type strategic');
    const doc = parseAllDocuments(yaml)[0]?.toJS() as {
      spec: { template: { spec: Record<string, unknown> } };
    };
    expect(doc.spec.template.spec).toEqual({
      containers: [{ name: 'app', lifecycle: { preStop: { sleep: { seconds: 9 } } } }],
      terminationGracePeriodSeconds: 39,
    });
  });

  it('gets no verdict without recorded failures, nor a sleep it already has', () => {
    expect(
      analyzePod(ambientPod(), { namespaces: [ns], terminationFailures: NONE }).verdicts.map(
        (v) => v.verdict,
      ),
    ).not.toContain('ambient-gone-before-ztunnel');
    const f: TerminationFailures = {
      count: 1,
      toTerminating: 1,
      toGone: 0,
      lastAfterDeletionMs: 1000,
    };
    const v = analyzePod(ambientPod(20), {
      namespaces: [ns],
      terminationFailures: f,
    }).verdicts.find((x) => x.verdict === 'ambient-gone-before-ztunnel');
    expect(v?.needs).toBeUndefined();
    expect(v?.evidence.fixBasis).toBe(
      'every app has a preStop of its own kind or one already as long',
    );
  });
});
