import { describe, it, expect } from 'vitest';
import { analyzePod } from './analyze';
import { buildPod } from '../../tests/data/timeline/builders';
import { parseDurationMs } from './time';

const shutdown = (t: ReturnType<typeof analyzePod>) =>
  t.verdicts.filter((v) => v.phase === 'shutdown');

describe('shutdown verdicts', () => {
  it('preStop sleep 15 with the default 5s drain -> drain-too-short with a matched drain fix', () => {
    const pod = buildPod({
      mode: 'classic',
      apps: [{ name: 'app', startedAt: 9, preStopSleep: 15 }],
      owner: { replicaSet: 'web-7d9f8b6c5d', hash: '7d9f8b6c5d' },
    });
    const [v, ...rest] = shutdown(analyzePod(pod));
    expect(rest).toEqual([]);
    expect(v?.verdict).toBe('drain-too-short');
    expect(v?.code).toBe('MDX0105');
    expect(v?.evidence).toMatchObject({
      terminationDrainDurationMs: 5000,
      drainSource: 'default',
      appPreStopSeconds: 15,
      terminationGracePeriodSeconds: 30,
    });
    // 15 s preStop + 5 s margin = 20 s, fits in 30 s grace: no grace change
    expect(v?.fixes[0]?.yaml).toContain('"terminationDrainDuration":"20s"');
    expect(v?.fixes[0]?.yaml).not.toContain('terminationGracePeriodSeconds');
  });

  it('exec sleep in preStop, drain from annotation long enough -> no verdict', () => {
    const pod = buildPod({
      mode: 'classic',
      apps: [{ name: 'app', startedAt: 9, preStopExec: ['/bin/sh', '-c', 'sleep 10'] }],
      annotations: { 'proxy.istio.io/config': '{"terminationDrainDuration": "12s"}' },
    });
    expect(shutdown(analyzePod(pod))).toEqual([]);
  });

  it('drain from legacy env and from mesh config; annotation wins over mesh', () => {
    const legacy = buildPod({
      mode: 'classic',
      apps: [{ name: 'app', preStopSleep: 8 }],
      proxy: { env: { TERMINATION_DRAIN_DURATION_SECONDS: '10' } },
    });
    expect(shutdown(analyzePod(legacy))).toEqual([]);
    const mesh = buildPod({ mode: 'classic', apps: [{ name: 'app', preStopSleep: 8 }] });
    expect(
      shutdown(analyzePod(mesh, { mesh: { from: 'configmap', drainMs: 3000 } }))[0]?.evidence
        .drainSource,
    ).toBe('mesh');
    const ann = buildPod({
      mode: 'classic',
      apps: [{ name: 'app', preStopSleep: 8 }],
      annotations: { 'proxy.istio.io/config': 'terminationDrainDuration: 1m' },
    });
    expect(
      shutdown(analyzePod(ann, { mesh: { from: 'configmap', drainMs: 3000 } })).map(
        (v) => v.verdict,
      ),
    ).toEqual(['grace-exceeded']);
  });

  it('EXIT_ON_ZERO_ACTIVE_CONNECTIONS changes the logic: no drain-too-short', () => {
    const pod = buildPod({
      mode: 'classic',
      apps: [{ name: 'app', preStopSleep: 15 }],
      proxy: { env: { EXIT_ON_ZERO_ACTIVE_CONNECTIONS: 'true' } },
    });
    expect(shutdown(analyzePod(pod))).toEqual([]);
  });

  it('preStop as long as the grace period -> grace-exceeded (and drain-too-short)', () => {
    const pod = buildPod({ mode: 'classic', grace: 20, apps: [{ name: 'app', preStopSleep: 20 }] });
    const vs = shutdown(analyzePod(pod));
    expect(vs.map((v) => v.verdict)).toEqual(['drain-too-short', 'grace-exceeded']);
    const g = vs[1];
    expect(g?.code).toBe('MDX0106');
    // one patch for both: the 25 s drain, and a grace period that covers it (25 s + 5 s), not
    // the drain fix's 30 beside the grace fix's 25
    expect(vs[0]?.fixes[0]?.yaml).toContain('terminationGracePeriodSeconds: 30');
    expect(vs[0]?.fixes[0]?.yaml).toContain('"terminationDrainDuration":"25s"');
    expect(g?.fixes[0]).toEqual(vs[0]?.fixes[0]);
    expect(g?.evidence.neededSeconds).toBe(25);
  });

  it('native: no drain race, but preStop + drain beyond grace -> grace-exceeded', () => {
    const ok = buildPod({
      mode: 'native',
      apps: [{ name: 'app', startedAt: 5, preStopSleep: 15 }],
    });
    expect(shutdown(analyzePod(ok))).toEqual([]);
    const over = buildPod({
      mode: 'native',
      grace: 18,
      apps: [{ name: 'app', startedAt: 5, preStopSleep: 15 }],
    });
    expect(shutdown(analyzePod(over)).map((v) => [v.verdict, v.evidence.neededSeconds])).toEqual([
      ['grace-exceeded', 25],
    ]);
  });

  it('observed: app finished 8 s after the proxy during deletion, and was killed with 137', () => {
    const pod = buildPod({
      mode: 'classic',
      deletion: { at: 100, grace: 30 },
      apps: [
        {
          name: 'app',
          terminated: { startedAt: 5, finishedAt: 130, exitCode: 137, reason: 'Error' },
        },
      ],
      proxy: { terminated: { startedAt: 3, finishedAt: 105, exitCode: 0, reason: 'Completed' } },
    });
    const vs = shutdown(analyzePod(pod));
    expect(vs.map((v) => [v.verdict, v.confidence])).toEqual([
      ['drain-too-short', 'high'],
      ['grace-exceeded', 'high'],
      ['exit-at-shutdown', 'high'],
    ]);
    expect(vs[0]?.evidence.appFinishedAfterProxyMs).toBe(25000);
    expect(vs[1]?.evidence.killedContainer).toBe('app');
    // the 137 is the kill at the deadline (30 s after the deletion started), not a failed start
    expect(vs[2]?.evidence).toMatchObject({
      signal: 'SIGKILL',
      finishedAfterDeletionMs: 30000,
      killedAtDeadline: true,
    });
  });
});

describe('shutdown: what the proxy itself does', () => {
  it('EXIT_ON_ZERO_ACTIVE_CONNECTIONS in the annotation proxyMetadata counts like the env var', () => {
    const pod = buildPod({
      mode: 'classic',
      apps: [{ name: 'app', startedAt: 9, preStopExec: ['sh', '-c', 'sleep 20'] }],
      grace: 60,
      annotations: {
        'proxy.istio.io/config': '{"proxyMetadata":{"EXIT_ON_ZERO_ACTIVE_CONNECTIONS":"true"}}',
      },
    });
    expect(shutdown(analyzePod(pod))).toEqual([]);
    // and from the mesh defaultConfig, with the minimum drain from there too
    const mesh = buildPod({
      mode: 'classic',
      apps: [{ name: 'app', preStopSleep: 20 }],
      grace: 60,
    });
    expect(shutdown(analyzePod(mesh, { mesh: { from: 'configmap', exitOnZero: true } }))).toEqual(
      [],
    );
    const longMin = shutdown(
      analyzePod(mesh, { mesh: { from: 'configmap', exitOnZero: true, minDrainMs: 70_000 } }),
    );
    expect(longMin.map((v) => v.verdict)).toEqual(['grace-exceeded']);
    // an explicit false in the annotation wins over the mesh
    const off = buildPod({
      mode: 'classic',
      apps: [{ name: 'app', preStopSleep: 20 }],
      grace: 60,
      annotations: {
        'proxy.istio.io/config': 'proxyMetadata:\n  EXIT_ON_ZERO_ACTIVE_CONNECTIONS: "false"\n',
      },
    });
    const v = shutdown(analyzePod(off, { mesh: { from: 'configmap', exitOnZero: true } }));
    expect(v.map((x) => x.verdict)).toEqual(['drain-too-short']);
    expect(v[0]?.fixes.some((f) => f.yaml?.includes('EXIT_ON_ZERO'))).toBe(true);
  });

  it("istio-proxy's own preStop keeps it serving before its drain starts", () => {
    const pod = buildPod({
      mode: 'classic',
      apps: [{ name: 'app', startedAt: 9, preStopSleep: 20 }],
      proxy: { preStopExec: ['sleep', '30'] },
      grace: 60,
    });
    const t = analyzePod(pod);
    expect(shutdown(t)).toEqual([]);
    // 30 s proxy preStop + 5 s drain does not fit a 30 s grace period
    const tight = buildPod({
      mode: 'classic',
      apps: [{ name: 'app', startedAt: 9, preStopSleep: 20 }],
      proxy: { preStopExec: ['sleep', '30'] },
      grace: 30,
    });
    const vs = shutdown(analyzePod(tight));
    expect(vs.map((v) => v.verdict)).toEqual(['grace-exceeded']);
    expect(vs[0]?.evidence.proxyPreStopSeconds).toBe(30);
    // a short proxy preStop shortens the drain the fix asks for
    const short = buildPod({
      mode: 'classic',
      apps: [{ name: 'app', startedAt: 9, preStopSleep: 20 }],
      proxy: { preStopSleep: 10 },
      grace: 60,
    });
    const d = shutdown(analyzePod(short))[0];
    expect(d?.verdict).toBe('drain-too-short');
    expect(d?.fixes[0]?.yaml).toContain('"terminationDrainDuration":"15s"');
  });
});

describe('durations', () => {
  it('reads Go, protobuf and plain-second forms and rejects garbage', () => {
    expect(parseDurationMs('5s')).toBe(5000);
    expect(parseDurationMs('1m30s')).toBe(90000);
    expect(parseDurationMs('500ms')).toBe(500);
    expect(parseDurationMs('2.5s')).toBe(2500);
    expect(parseDurationMs('45')).toBe(45000);
    expect(parseDurationMs({ seconds: 3, nanos: 500000000 })).toBe(3500);
    expect(parseDurationMs('5 seconds')).toBeNull();
    expect(parseDurationMs('')).toBeNull();
  });
});

describe('shutdown: the failing requests recorded against the termination', () => {
  const failures = { count: 66, toTerminating: 60, toGone: 6, lastAfterDeletionMs: 11_400 };

  it('failures to the terminating pod make the drain verdict, with the figure Incidents gives', () => {
    // no preStop, the app ended with the proxy: nothing in the spec says the drain is short
    const pod = buildPod({ mode: 'classic', apps: [{ name: 'app', startedAt: 5 }] });
    expect(shutdown(analyzePod(pod))).toEqual([]);
    const vs = shutdown(analyzePod(pod, { terminationFailures: failures }));
    expect(vs.map((v) => v.verdict)).toEqual(['drain-too-short']);
    expect(vs[0]?.evidence).toMatchObject({
      observed: true,
      basis: 'failed-requests',
      failedRequests: 66,
      failedToTerminating: 60,
      failedToGone: 6,
    });
    // the drain covers the last request clients sent after the deletion (11.4 s -> 13 s)
    expect(vs[0]?.fixes[0]?.yaml).toContain('"terminationDrainDuration":"13s"');
  });

  it('a drain verdict from the spec says the measured figure, 0 included; unmeasured, no figure', () => {
    const pod = buildPod({ mode: 'classic', apps: [{ name: 'app', preStopSleep: 15 }] });
    const none = { count: 0, toTerminating: 0, toGone: 0, lastAfterDeletionMs: null };
    const measured = shutdown(analyzePod(pod, { terminationFailures: none }));
    expect(measured[0]?.evidence.failedRequests).toBe(0);
    const unmeasured = shutdown(analyzePod(pod));
    expect(unmeasured[0]?.evidence).not.toHaveProperty('failedRequests');
  });
});
