import { describe, it, expect } from 'vitest';
import { analyzePod } from './analyze';
import { buildPod, event } from '../../tests/data/timeline/builders';

const startup = (t: ReturnType<typeof analyzePod>) => t.verdicts.find((v) => v.phase === 'startup');

describe('proxy ready lower bound from the probes (plain PodList, no events)', () => {
  it('app started a full second before proxy start + initialDelaySeconds -> race, medium', () => {
    const pod = buildPod({
      mode: 'classic',
      apps: [{ name: 'app', startedAt: 3 }],
      proxy: { startedAt: 3, readinessDelay: 1 },
      conditions: { ContainersReady: 6 },
    });
    const t = analyzePod(pod);
    const v = startup(t);
    expect(v?.verdict).toBe('race');
    expect(v?.confidence).toBe('medium');
    expect(v?.evidence.raceBasis).toBe('probe-lower-bound');
    expect(String(v?.evidence.reason)).toContain('readinessProbe initialDelaySeconds (1s)');
  });

  it('the startup probe delay counts too, the longer of the two', () => {
    const pod = buildPod({
      mode: 'classic',
      apps: [{ name: 'app', startedAt: 4 }],
      proxy: { startedAt: 3, readinessDelay: 1, startupDelay: 3 },
    });
    const t = analyzePod(pod);
    expect(t.proxyReady.source).toBe('probe-lower-bound');
    expect(t.proxyReady.at).toBeNull();
    expect(t.gapMs).toBeNull();
    expect(startup(t)?.verdict).toBe('race');
    expect(String(startup(t)?.evidence.reason)).toContain('startupProbe');
  });

  it('whole-second precision: an app start less than 1 s before the bound proves nothing', () => {
    const pod = buildPod({
      mode: 'classic',
      apps: [{ name: 'app', startedAt: 4 }],
      proxy: { startedAt: 3, readinessDelay: 1 },
    });
    const v = startup(analyzePod(pod));
    expect(v?.verdict).toBe('unknown');
    // the reason says what is missing
    expect(String(v?.evidence.reason)).toMatch(
      /no ready transition \(watch stream\), Unhealthy events/,
    );
  });

  it('no probe delay: same-second starts stay unknown unless the app failed early', () => {
    const pod = buildPod({
      mode: 'classic',
      apps: [{ name: 'app', startedAt: 3 }],
      proxy: { startedAt: 3 },
      conditions: { ContainersReady: 9 },
    });
    expect(startup(analyzePod(pod))?.verdict).toBe('unknown');
  });
});

describe('race-restart from the first run alone (PodList)', () => {
  const racer = (exitCode: number, finishedAt: number, ready = 21) =>
    buildPod({
      mode: 'classic',
      apps: [
        { name: 'app', startedAt: 20, restarts: 1, last: { startedAt: 2, finishedAt, exitCode } },
      ],
      proxy: { startedAt: 2 },
      conditions: { ContainersReady: ready },
    });

  it('app started with the proxy, exited 1 a second later, restarted -> race-restart', () => {
    const t = analyzePod(racer(1, 3));
    const v = startup(t);
    expect(v?.verdict).toBe('race-restart');
    expect(v?.confidence).toBe('low');
    expect(v?.evidence.raceBasis).toBe('early-exit');
    expect(String(v?.evidence.reason)).toContain('exited 1 after 1s, before ContainersReady');
  });

  it('a clean exit, or a failure after ContainersReady, is not taken as a race', () => {
    expect(startup(analyzePod(racer(0, 3)))?.verdict).toBe('unknown');
    expect(startup(analyzePod(racer(1, 3, 3)))?.verdict).not.toMatch(/^race/);
    // failed after a long first run: not "within its first seconds"
    expect(startup(analyzePod(racer(1, 19)))?.verdict).toBe('unknown');
  });
});

describe('gap and clocks', () => {
  it('gapMs is null without a proxy ready time (not measured against the proxy start)', () => {
    const pod = buildPod({
      mode: 'native',
      apps: [{ name: 'app', startedAt: 5 }],
      proxy: { startedAt: 1 },
    });
    const t = analyzePod(pod);
    expect(t.proxyReady.at).toBeNull();
    expect(t.gapMs).toBeNull();
    expect(startup(t)?.evidence.gapMs).toBeNull();
  });

  it('a race decided across two nodes with a few seconds of margin is medium, and says so', () => {
    const pod = buildPod({
      mode: 'classic',
      apps: [{ name: 'app', startedAt: 3 }],
      proxy: { startedAt: 1 },
      conditions: { ContainersReady: 10 },
    });
    const at = (s: number) => [
      event(pod, 'Unhealthy', 'Readiness probe failed: HTTP probe failed with statuscode: 503', s, {
        container: 'istio-proxy',
        host: 'other-node',
      }),
    ];
    const near = startup(analyzePod(pod, { events: at(6) }));
    expect(near?.verdict).toBe('race');
    expect(near?.confidence).toBe('medium');
    expect(String(near?.evidence.reason)).toContain('within plausible node clock skew');
    const far = startup(analyzePod(pod, { events: at(9) }));
    expect(far?.verdict).toBe('race');
    expect(far?.confidence).toBe('high');
  });
});
