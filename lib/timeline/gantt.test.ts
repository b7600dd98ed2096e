import { describe, it, expect } from 'vitest';
import { analyzePod } from './analyze';
import { buildGantt } from './gantt';
import { at, buildPod, event } from '../../tests/data/timeline/builders';
import type { Transition } from './types';

describe('gantt markers from what the data has', () => {
  it('Created events, each container ready moment, postStart and preStop hooks', () => {
    const pod = buildPod({
      mode: 'hold',
      apps: [{ name: 'app', startedAt: 4, preStopSleep: 10 }],
      proxy: { startedAt: 1 },
      deletion: { at: 60, grace: 30 },
    });
    const uid = pod.metadata.uid as string;
    const transitions: Transition[] = [
      {
        time: at(3),
        podUid: uid,
        container: 'istio-proxy',
        field: 'ready',
        value: true,
        timeSource: 'observed',
      },
      {
        time: at(6),
        podUid: uid,
        container: 'app',
        field: 'ready',
        value: true,
        timeSource: 'observed',
      },
    ];
    const events = [event(pod, 'Created', 'Created container app', 3, { container: 'app' })];
    const t = analyzePod(pod, { events, transitions });
    const g = buildGantt(pod, t, events, transitions);
    const kinds = (k: string) => g.markers.filter((m) => m.kind === k);
    expect(kinds('created').map((m) => [m.container, m.time])).toEqual([['app', at(3)]]);
    expect(kinds('container-ready').map((m) => [m.container, m.time])).toEqual([
      ['istio-proxy', at(3)],
      ['app', at(6)],
    ]);
    expect(kinds('post-start')).toMatchObject([
      { container: 'istio-proxy', time: at(1), label: 'postStart pilot-agent wait' },
    ]);
    expect(kinds('pre-stop')).toMatchObject([
      { container: 'app', time: at(60), label: 'preStop sleep 10s (10s before SIGTERM)' },
    ]);
  });
});

describe('gantt bars mean the state at that time', () => {
  it('a deleted pod ran until its containers exited: its bars are not "terminated" for its life', () => {
    const pod = buildPod({
      mode: 'classic',
      apps: [
        {
          name: 'app',
          terminated: { startedAt: 5, finishedAt: 3125, exitCode: 0, reason: 'Completed' },
        },
      ],
      proxy: { terminated: { startedAt: 2, finishedAt: 3130, exitCode: 0, reason: 'Completed' } },
      deletion: { at: 3120, grace: 30 },
    });
    const t = analyzePod(pod, { events: [], transitions: [] });
    const g = buildGantt(pod, t, [], []);
    const rows = g.rows.filter((r) => r.container === 'app' || r.container === 'istio-proxy');
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      const red = row.segments.filter((s) => s.kind === 'terminated');
      expect(red, row.container).toEqual([]);
      const run = row.segments.find((s) => s.kind === 'running');
      expect(run?.to, row.container).not.toBeNull();
      expect(run?.label).toContain('ran, then exit 0 Completed');
    }
  });

  it('a container that exited before its pod went is terminated from its exit on', () => {
    const pod = buildPod({
      mode: 'classic',
      apps: [
        { name: 'app', terminated: { startedAt: 5, finishedAt: 60, exitCode: 1, reason: 'Error' } },
      ],
      proxy: { startedAt: 2 },
      deletion: { at: 120, grace: 30 },
    });
    const t = analyzePod(pod, { events: [], transitions: [] });
    const app = buildGantt(pod, t, [], []).rows.find((r) => r.container === 'app');
    expect(app?.segments.map((s) => [s.kind, s.from, s.to])).toContainEqual([
      'running',
      at(5),
      at(60),
    ]);
    expect(app?.segments.find((s) => s.kind === 'terminated')).toMatchObject({
      from: at(60),
      label: 'exit 1 Error',
    });
  });
});
