import { describe, expect, it } from 'vitest';
import { analyzePod } from './analyze';
import { at, buildPod } from '../../tests/data/timeline/builders';

const verdicts = (p: Parameters<typeof analyzePod>[0], ctx?: Parameters<typeof analyzePod>[1]) =>
  analyzePod(p, ctx).verdicts.map((v) => v.verdict);

describe('native sidecar verdicts', () => {
  it('claims native-ok only when the status shows the proxy ready before the app', () => {
    const observed = buildPod({
      mode: 'native',
      proxy: { startedAt: 1 },
      apps: [{ name: 'app', startedAt: 6 }],
    });
    // Envoy's init time places the proxy ready at 3s, the app started at 6s
    const uid = observed.metadata.uid ?? '';
    expect(verdicts(observed, { envoyInitMs: { [uid]: 2000 } })).toEqual(['native-ok']);
    const specOnly = buildPod({ mode: 'native', noStatus: true });
    const t = analyzePod(specOnly);
    expect(t.verdicts.map((v) => [v.verdict, v.evidence.judgedFrom])).toEqual([
      ['native-unobserved', 'spec'],
    ]);
  });

  it('says the app is blocked when the native proxy never got ready', () => {
    const pod = buildPod({
      mode: 'native',
      proxy: { startedAt: 1, ready: false, restarts: 2 },
      apps: [{ name: 'app' }],
    });
    const proxy = pod.status?.initContainerStatuses?.[0];
    if (proxy) proxy.started = false;
    const app = pod.status?.containerStatuses?.[0];
    if (app) app.state = { waiting: { reason: 'PodInitializing' } };
    const t = analyzePod(pod);
    expect(t.verdicts.map((v) => v.verdict)).toEqual(['native-not-ready']);
    expect(t.verdicts[0]?.code).toBe('MDX0110');
    expect(t.verdicts[0]?.evidence.appsWaiting).toBe('PodInitializing');
    expect(t.verdicts[0]?.confidence).toBe('high');
    // a classic pod in the same state is not judged by this rule
    const classic = buildPod({
      mode: 'classic',
      proxy: { startedAt: 1, ready: false },
      apps: [{ name: 'app' }],
    });
    expect(verdicts(classic)).not.toContain('native-not-ready');
  });

  it('flags a pod seen alive past its deletion deadline with the native proxy still running', () => {
    const pod = buildPod({
      mode: 'native',
      proxy: { startedAt: 1 },
      apps: [{ name: 'app', terminated: { startedAt: 6, finishedAt: 105, exitCode: 0 } }],
      deletion: { at: 100, grace: 30 },
    });
    const late = [
      { time: at(200), podUid: pod.metadata.uid ?? '', container: '', field: 'seen', value: null },
    ];
    expect(verdicts(pod, { transitions: late })).toContain('native-stuck-terminating');
    // seen only before the deadline: the proxy may still be stopping normally
    const early = [{ ...late[0]!, time: at(120) }];
    expect(verdicts(pod, { transitions: early })).not.toContain('native-stuck-terminating');
  });

  it('calls holdApplicationUntilProxyStarts dead configuration under native sidecars', () => {
    const pod = buildPod({
      mode: 'native',
      proxy: { startedAt: 1 },
      apps: [{ name: 'app', startedAt: 6 }],
      annotations: { 'proxy.istio.io/config': 'holdApplicationUntilProxyStarts: true' },
    });
    const t = analyzePod(pod);
    const hold = t.verdicts.find((v) => v.verdict === 'hold-redundant');
    expect(hold?.code).toBe('MDX0112');
    expect(hold?.fixes).toHaveLength(1);
    const meshHold = analyzePod(buildPod({ mode: 'native', proxy: { startedAt: 1 } }), {
      mesh: { hold: true, from: 'configmap' },
    });
    expect(meshHold.verdicts.find((v) => v.verdict === 'hold-redundant')?.evidence.holdFrom).toBe(
      'mesh defaultConfig',
    );
    expect(
      verdicts(buildPod({ mode: 'hold' }), { mesh: { hold: true, from: 'configmap' } }),
    ).not.toContain('hold-redundant');
  });
});
