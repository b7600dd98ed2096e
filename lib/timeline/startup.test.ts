import { describe, it, expect } from 'vitest';
import { analyzePod } from './analyze';
import { buildPod, event, at, T0 } from '../../tests/data/timeline/builders';
import type { Transition } from './types';

const startup = (t: ReturnType<typeof analyzePod>) => t.verdicts.find((v) => v.phase === 'startup');

describe('startup verdicts', () => {
  it('classic: app started before the proxy container itself -> race, high confidence', () => {
    const pod = buildPod({
      mode: 'classic',
      apps: [{ name: 'app', startedAt: 2 }],
      proxy: { startedAt: 5 },
      conditions: { ContainersReady: 9 },
    });
    const t = analyzePod(pod);
    const v = startup(t);
    expect(v?.verdict).toBe('race');
    expect(v?.code).toBe('MDX0101');
    expect(v?.confidence).toBe('high');
    // ContainersReady (9 s) is the only ready source: gap = 2 - 9 s.
    expect(t.proxyReady.source).toBe('containers-ready');
    expect(t.gapMs).toBe(-7000);
    expect(v?.fixes[0]?.yaml).toContain(
      'proxy.istio.io/config: \'{"holdApplicationUntilProxyStarts":true}\'',
    );
  });

  it('classic: app started after the proxy container but before ContainersReady -> unknown (upper bound only)', () => {
    const pod = buildPod({
      mode: 'classic',
      apps: [{ name: 'app', startedAt: 6 }],
      proxy: { startedAt: 3 },
      conditions: { ContainersReady: 12 },
    });
    const v = startup(analyzePod(pod));
    expect(v?.verdict).toBe('unknown');
    expect(String(v?.evidence.reason)).toContain('ContainersReady');
  });

  it('race-restart: first run (lastState) raced and exited 1, second run is fine', () => {
    const pod = buildPod({
      mode: 'classic',
      owner: { replicaSet: 'web-7d9f8b6c5d', hash: '7d9f8b6c5d' },
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
    const t = analyzePod(pod);
    const v = startup(t);
    expect(v?.verdict).toBe('race-restart');
    expect(v?.code).toBe('MDX0102');
    expect(v?.evidence.appStartedAt).toBe(at(1));
    expect(v?.evidence.exitCode).toBe(1);
    expect(t.restarts).toBe(1);
    expect(v?.fixes[0]?.yaml).toContain('patch deployment web');
  });

  it('hold (visible postStart) with the app after proxy ready -> held-ok', () => {
    const pod = buildPod({
      mode: 'hold',
      apps: [{ name: 'app', startedAt: 6 }],
      proxy: { startedAt: 1 },
    });
    const events = [
      event(
        pod,
        'Unhealthy',
        'Readiness probe failed: Get "http://10.0.0.1:15021/healthz/ready": connection refused',
        3,
        { container: 'istio-proxy' },
      ),
    ];
    const t = analyzePod(pod, { events });
    expect(t.proxyReady.source).toBe('unhealthy-events');
    // last failure at 3 s + default readiness period 10 s
    expect(t.proxyReady.at).toBe(T0 + 13000);
    const v = startup(t);
    // app at 6 s: before the probe-based estimate (13 s) but after the last failed probe (3 s).
    // pilot-agent wait checks readiness itself, so the app may start before the kubelet's next
    // probe: not a race; the visible postStart hold guarantees the order (judged from the spec).
    expect(v?.verdict).toBe('held-ok');
    expect(v?.confidence).toBe('medium');
    expect(v?.evidence.judgedFrom).toBe('spec');
    expect(v?.evidence.gapMs).toBe(-7000);
  });

  it('classic: app started inside the probe window -> unknown, not race', () => {
    const pod = buildPod({
      mode: 'classic',
      apps: [{ name: 'app', startedAt: 4 }],
      proxy: { startedAt: 1 },
      conditions: { ContainersReady: 14 },
    });
    const events = [
      event(pod, 'Unhealthy', 'Readiness probe failed: connection refused', 3, {
        container: 'istio-proxy',
      }),
    ];
    const v = startup(analyzePod(pod, { events }));
    expect(v?.verdict).toBe('unknown');
    expect(String(v?.evidence.reason)).toMatch(/last failed probe and before the next/);
  });

  it('classic: app started before a failed probe of the same kubelet -> proven race, high', () => {
    const pod = buildPod({
      mode: 'classic',
      apps: [{ name: 'app', startedAt: 1 }],
      proxy: { startedAt: 1 },
      conditions: { ContainersReady: 6 },
    });
    // one second later, same node clock: second-resolution times keep their order
    const events = [
      event(pod, 'Unhealthy', 'Readiness probe failed: connection refused', 2, {
        container: 'istio-proxy',
      }),
    ];
    const t = analyzePod(pod, { events });
    const v = startup(t);
    expect(v?.verdict).toBe('race');
    expect(v?.confidence).toBe('high');
    expect(String(v?.evidence.reason)).toContain('failed a readiness probe');
    // the same failure from another node's clock is within the skew tolerance: not proven
    const far = [
      event(pod, 'Unhealthy', 'Readiness probe failed: connection refused', 2, {
        container: 'istio-proxy',
        host: 'other-node',
      }),
    ];
    expect(startup(analyzePod(pod, { events: far }))?.confidence).not.toBe('high');
  });

  it('hold with envoy init time -> held-ok with medium confidence', () => {
    const pod = buildPod({
      mode: 'hold',
      apps: [{ name: 'app', startedAt: 4 }],
      proxy: { startedAt: 1 },
    });
    const t = analyzePod(pod, { envoyInitMs: { [pod.metadata.uid as string]: 1500 } });
    expect(t.proxyReady).toMatchObject({
      source: 'envoy-init',
      at: T0 + 2500,
      confidence: 'medium',
    });
    const v = startup(t);
    expect(v?.verdict).toBe('held-ok');
    expect(v?.code).toBe('MDX0103');
    expect(t.gapMs).toBe(1500);
  });

  it('native with status -> native-ok; classic started late -> classic-ok with a fix', () => {
    const nat = buildPod({
      mode: 'native',
      apps: [{ name: 'app', startedAt: 5 }],
      proxy: { startedAt: 1 },
    });
    expect(
      startup(analyzePod(nat, { envoyInitMs: { 'shop/web-7d9f8b6c5d-abcde': 2000 } }))?.verdict,
    ).toBe('native-ok');
    const cls = buildPod({
      mode: 'classic',
      apps: [{ name: 'app', startedAt: 9 }],
      proxy: { startedAt: 1 },
    });
    const v = startup(analyzePod(cls, { envoyInitMs: { [cls.metadata.uid as string]: 2000 } }));
    expect(v?.verdict).toBe('classic-ok');
    expect(v?.fixes.length).toBe(3);
  });

  it('several app containers: the one that raced decides, the others do not hide it', () => {
    const pod = buildPod({
      mode: 'classic',
      apps: [
        { name: 'late', startedAt: 20 },
        { name: 'early', startedAt: 1 },
      ],
      proxy: { startedAt: 4 },
    });
    const v = startup(analyzePod(pod, { envoyInitMs: { [pod.metadata.uid as string]: 1000 } }));
    expect(v?.verdict).toBe('race');
    expect(v?.evidence.container).toBe('early');
    expect(v?.evidence.gapMs).toBe(-4000);
  });

  it('clock skew: observed transition on the watcher clock within 1 s of app start -> simultaneous, low', () => {
    const pod = buildPod({
      mode: 'classic',
      apps: [{ name: 'app', startedAt: 5 }],
      proxy: { startedAt: 2 },
    });
    const tr: Transition[] = [
      {
        time: new Date(T0 + 5600).toISOString(),
        podUid: pod.metadata.uid as string,
        container: 'istio-proxy',
        field: 'ready',
        value: true,
        timeSource: 'observed',
      },
    ];
    const t = analyzePod(pod, { transitions: tr });
    expect(t.proxyReady).toMatchObject({
      source: 'transition',
      clock: 'observer',
      confidence: 'high',
    });
    const v = startup(t);
    expect(v?.verdict).toBe('classic-ok');
    expect(v?.confidence).toBe('low');
    expect(t.gapMs).toBe(-600);
  });

  it('clock skew: observed transition well after app start -> race, confidence capped at medium', () => {
    const pod = buildPod({
      mode: 'classic',
      apps: [{ name: 'app', startedAt: 5 }],
      proxy: { startedAt: 2 },
    });
    const tr: Transition[] = [
      {
        time: at(8),
        podUid: pod.metadata.uid as string,
        container: 'istio-proxy',
        field: 'ready',
        value: true,
        timeSource: 'observed',
      },
    ];
    const v = startup(analyzePod(pod, { transitions: tr }));
    expect(v?.verdict).toBe('race');
    expect(v?.confidence).toBe('medium');
  });

  it('Unhealthy event from another node is marked cross-clock', () => {
    const pod = buildPod({
      mode: 'classic',
      apps: [{ name: 'app', startedAt: 30 }],
      proxy: { startedAt: 1 },
    });
    const ev = event(
      pod,
      'Unhealthy',
      'Readiness probe failed: HTTP probe failed with statuscode: 503',
      4,
      { container: 'istio-proxy', host: 'node-b' },
    );
    const t = analyzePod(pod, { events: [ev] });
    expect(t.proxyReady.clock).toBe('event');
    expect(t.proxyReady.notes.join(' ')).toContain('clocks may differ');
    expect(startup(t)?.verdict).toBe('classic-ok');
  });

  it('missing status fields: no startedAt anywhere -> unknown, never throws', () => {
    const pod = buildPod({ mode: 'classic', apps: [{ name: 'app' }], proxy: {} });
    delete pod.status?.conditions;
    const proxy = pod.status?.containerStatuses?.find((c) => c.name === 'istio-proxy');
    if (proxy) delete proxy.state;
    const v = startup(analyzePod(pod));
    expect(v?.verdict).toBe('unknown');
    expect(v?.code).toBe('MDX0107');
  });

  it('an istio-proxy that restarted: envoy init time is not used, the first run still bounds', () => {
    const pod = buildPod({
      mode: 'classic',
      apps: [{ name: 'app', startedAt: 1 }],
      proxy: {
        startedAt: 40,
        restarts: 1,
        last: { startedAt: 3, finishedAt: 30, exitCode: 137, reason: 'OOMKilled' },
      },
      conditions: { ContainersReady: 45 },
    });
    const t = analyzePod(pod, { envoyInitMs: { [pod.metadata.uid as string]: 800 } });
    expect(t.proxyRestarts).toBe(1);
    expect(t.proxyReady.source).toBe('containers-ready');
    expect(t.proxyReady.notBefore).toBe(T0 + 3000);
    expect(t.notes.join(' ')).toContain('envoy init time ignored');
    expect(startup(t)?.verdict).toBe('race');
  });

  it('restarted several times without transitions: first run not visible -> unknown', () => {
    const pod = buildPod({
      mode: 'classic',
      apps: [
        {
          name: 'app',
          startedAt: 80,
          restarts: 3,
          last: { startedAt: 50, finishedAt: 60, exitCode: 1 },
        },
      ],
      proxy: { startedAt: 1 },
    });
    const v = startup(analyzePod(pod, { envoyInitMs: { [pod.metadata.uid as string]: 1000 } }));
    expect(v?.verdict).toBe('unknown');
    expect(String(v?.evidence.reason)).toContain('first run is not visible');
  });

  it('wrapper that polls the proxy: started early but held -> held-ok', () => {
    const pod = buildPod({
      mode: 'classic',
      apps: [
        {
          name: 'app',
          startedAt: 1,
          command: [
            'sh',
            '-c',
            'until curl -s localhost:15020/healthz/ready; do sleep 1; done; exec app',
          ],
        },
      ],
      proxy: { startedAt: 2 },
    });
    const t = analyzePod(pod);
    expect(t.mode).toBe('wrapper');
    expect(startup(t)?.verdict).toBe('held-ok');
    expect(startup(t)?.confidence).toBe('medium');
    // With a ready estimate the app's container start is before it, but the wrapper waited.
    const known = analyzePod(pod, { envoyInitMs: { [pod.metadata.uid as string]: 3000 } });
    expect(known.gapMs).toBe(-4000);
    expect(startup(known)?.verdict).toBe('held-ok');
  });

  it('hold configured but not injected and raced: restart is the first fix', () => {
    const pod = buildPod({
      mode: 'classic',
      apps: [{ name: 'app', startedAt: 1 }],
      proxy: { startedAt: 4 },
      owner: { replicaSet: 'api-5f6d7c8b9', hash: '5f6d7c8b9' },
    });
    const v = startup(analyzePod(pod, { mesh: { from: 'configmap', hold: true } }));
    expect(v?.verdict).toBe('race');
    expect(v?.fixes[0]?.yaml).toBe('kubectl -n shop rollout restart deployment api\n');
  });
});
