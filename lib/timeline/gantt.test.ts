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
