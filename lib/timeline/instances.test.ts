/**
 * Verdicts per container instance, on real statuses (tests/data/timeline/real/PROVENANCE.md): a
 * node restart (exit 255, reason Unknown, app and proxy together) and a kill at shutdown (exit
 * 137 at the grace deadline) are not races; and on built pods, the other ways an instance ends.
 */
import { describe, expect, it } from 'vitest';
import { analyzePod } from './analyze';
import { podLifecycle } from './instances';
import { kindNodeRestartWatch, meshed, proxyLike } from '../../tests/data/timeline/real-pods';
import { buildPod } from '../../tests/data/timeline/builders';
import type { ContainerStatus, Pod } from '../kube/types';

const RACES = ['race', 'race-restart'];
const verdicts = (p: Pod) => analyzePod(p).verdicts.map((v) => v.verdict);

function appStatus(p: Pod): ContainerStatus {
  const s = p.status?.containerStatuses?.[0];
  if (!s) throw new Error(`${p.metadata.name} has no container status`);
  return s;
}

/** The real node-restarted pod (second watch event), meshed with a proxy that restarted with it. */
function nodeRestarted(): Pod {
  const real = kindNodeRestartWatch()[1]?.object as Pod;
  return meshed(real, proxyLike(appStatus(real)));
}

describe('a node restart (real status: exit 255 Unknown, app and proxy at the same second)', () => {
  it('is a pod restart, not a race, and the start is judged within the instance after it', () => {
    const pod = nodeRestarted();
    const t = analyzePod(pod);
    const names = t.verdicts.map((v) => v.verdict);
    expect(names.filter((v) => RACES.includes(v))).toEqual([]);
    const restart = t.verdicts.find((v) => v.verdict === 'pod-restart');
    expect(restart?.code).toBe('MDX0114');
    expect(restart?.evidence).toMatchObject({
      cause: 'node-restart',
      endedAt: '2023-03-10T13:31:39.000Z',
      exitCodes: 'network-tool=255 istio-proxy=255',
    });
    // the old start (2023-03-09T09:30:18Z) is not compared with readiness after the restart
    // (13:36:56): the gap is the current instance's, seconds, not -101,798 s
    expect(t.gapMs).not.toBeNull();
    expect(Math.abs(t.gapMs as number)).toBeLessThan(10_000);
    const start = t.verdicts.find((v) => v.phase === 'startup');
    expect(start?.evidence.judgedInstance).toBe('after the pod restart');
    expect(start?.evidence.appStartedAt).toBe('2023-03-10T13:36:56.000Z');
  });

  it('the unmeshed real pods: the restart is named, with both pods ending at one second', () => {
    const [a, b] = kindNodeRestartWatch()
      .slice(0, 2)
      .map((e) => e.object);
    for (const p of [a, b] as Pod[]) {
      const lc = podLifecycle(p, null);
      const first = lc.instances.find((i) => i.run === 0);
      expect(first).toMatchObject({ exitCode: 255, reason: 'Unknown' });
      expect(first?.finishedAt).toBe(Date.parse('2023-03-10T13:31:39Z'));
    }
  });
});

describe('a kill at shutdown (real status: exit 137 at the grace deadline, restartCount of that run 0)', () => {
  function killed(): Pod {
    const real = kindNodeRestartWatch()[3]?.object as Pod;
    const app = appStatus(real);
    // reconstructed (PROVENANCE.md): the proxy ran the app's current run and drained 5 s
    const proxy: ContainerStatus = {
      ...proxyLike(app),
      state: {
        terminated: {
          exitCode: 0,
          reason: 'Completed',
          startedAt: '2023-03-10T13:36:56Z',
          finishedAt: '2023-03-10T15:58:45Z',
        },
      },
    };
    return meshed(real, proxy);
  }

  it('is an exit at shutdown (SIGKILL at the deadline), not a race', () => {
    const t = analyzePod(killed());
    const names = t.verdicts.map((v) => v.verdict);
    expect(names.filter((v) => RACES.includes(v))).toEqual([]);
    const exit = t.verdicts.find((v) => v.verdict === 'exit-at-shutdown');
    expect(exit?.code).toBe('MDX0117');
    expect(exit?.evidence).toMatchObject({
      container: 'network-tool',
      exitCode: 137,
      signal: 'SIGKILL',
      deletionStartedAt: '2023-03-10T15:58:40.000Z',
      finishedAfterDeletionMs: 30_000,
      killedAtDeadline: true,
    });
    // the node restart before it is still named
    expect(names).toContain('pod-restart');
  });

  it('the last event (DELETED, deletion grace rewritten to 0) tells the same', () => {
    const real = kindNodeRestartWatch()[5]?.object as Pod;
    const lc = podLifecycle(real, null);
    const cur = lc.instances.find((i) => i.run === 1);
    expect(cur).toMatchObject({ end: 'shutdown', exitCode: 137, signal: 'SIGKILL' });
  });
});

describe('the ways an instance ends, told apart', () => {
  it('a long run killed at deletion with no restart is not an early failure (the demo exporter)', () => {
    const pod = buildPod({
      mode: 'classic',
      deletion: { at: 3090, grace: 30 },
      apps: [{ name: 'app', terminated: { startedAt: 2, finishedAt: 3120, exitCode: 137 } }],
      proxy: { terminated: { startedAt: 3, finishedAt: 3095, exitCode: 0 } },
      conditions: { ContainersReady: 9 },
    });
    const names = verdicts(pod);
    expect(names).not.toContain('race-restart');
    // the start still raced (app before proxy): a race, the app survived it
    expect(names[0]).toBe('race');
    expect(names).toContain('exit-at-shutdown');
  });

  it('the app alone crashing after its first seconds is a crash, not a race-restart', () => {
    const pod = buildPod({
      mode: 'classic',
      apps: [
        {
          name: 'app',
          startedAt: 900,
          restarts: 1,
          last: { startedAt: 1, finishedAt: 890, exitCode: 1, reason: 'Error' },
        },
      ],
      proxy: { startedAt: 3 },
      conditions: { ContainersReady: 901 },
    });
    const t = analyzePod(pod);
    const names = t.verdicts.map((v) => v.verdict);
    expect(names).not.toContain('race-restart');
    expect(names).not.toContain('pod-restart');
    const crash = t.verdicts.find((v) => v.verdict === 'app-crash');
    expect(crash?.evidence).toMatchObject({ container: 'app', exitCode: 1, ranSeconds: 889 });
  });

  it('an app that failed in its first second before the proxy was ready is still a race-restart', () => {
    const pod = buildPod({
      mode: 'classic',
      apps: [
        {
          name: 'app',
          startedAt: 12,
          restarts: 1,
          last: { startedAt: 1, finishedAt: 2, exitCode: 1, reason: 'Error' },
        },
      ],
      proxy: { startedAt: 3 },
      conditions: { ContainersReady: 13 },
    });
    expect(verdicts(pod)[0]).toBe('race-restart');
  });

  it('an OOM of app and proxy together is a pod restart with cause oom', () => {
    const pod = buildPod({
      mode: 'classic',
      apps: [
        {
          name: 'app',
          startedAt: 620,
          restarts: 1,
          last: { startedAt: 1, finishedAt: 600, exitCode: 137, reason: 'OOMKilled' },
        },
      ],
      proxy: {
        startedAt: 618,
        restarts: 1,
        last: { startedAt: 3, finishedAt: 601, exitCode: 137, reason: 'OOMKilled' },
      },
      conditions: { ContainersReady: 625 },
    });
    const t = analyzePod(pod);
    expect(t.verdicts.find((v) => v.verdict === 'pod-restart')?.evidence.cause).toBe('oom');
    expect(t.verdicts.map((v) => v.verdict)).not.toContain('race-restart');
  });

  it('a failed init container is an init failure', () => {
    const pod = buildPod({ mode: 'classic', apps: [{ name: 'app' }], proxy: {} });
    pod.status = {
      ...pod.status,
      initContainerStatuses: [
        {
          name: 'istio-init',
          ready: false,
          restartCount: 3,
          state: { waiting: { reason: 'CrashLoopBackOff' } },
          lastState: {
            terminated: {
              exitCode: 1,
              reason: 'Error',
              startedAt: '2024-05-01T10:00:40Z',
              finishedAt: '2024-05-01T10:00:41Z',
            },
          },
        },
      ],
    };
    const v = analyzePod(pod).verdicts.find((x) => x.verdict === 'init-failed');
    expect(v?.code).toBe('MDX0116');
    expect(v?.evidence).toMatchObject({ container: 'istio-init', exitCode: 1, restarts: 3 });
  });
});
