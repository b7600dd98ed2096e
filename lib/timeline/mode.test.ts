import { describe, it, expect } from 'vitest';
import { parse } from 'yaml';
import { analyzerPods, listFixtures, readFixture } from '../../test-support/fixtures';
import { detectMode } from './mode';
import { readTimelineInput } from './input';
import { analyzePod } from './analyze';
import { buildPod } from '../../tests/data/timeline/builders';
import type { Pod } from '../kube/types';

function fixturePod(file: string): Pod {
  const input = readTimelineInput(readFixture('pods', file));
  expect(input.errors).toEqual([]);
  expect(input.pods).toHaveLength(1);
  return input.pods[0] as Pod;
}

describe('startup mode on the real injected pods', () => {
  // Verified by reading the files: pod.yaml.injected is a native-sidecar injection (istio-proxy
  // in initContainers with restartPolicy Always), the opt-out keeps it in containers.
  const expected: Record<string, string> = {
    'injected_pod.yaml': 'native',
    'injected_native-sidecar.yaml': 'native',
    'injected_hello-multiport-metrics.yaml': 'native',
    'injected_native-sidecar-opt-out.yaml': 'classic',
    'kube-dns_pod_with_status.yaml': 'none',
  };

  it('covers every pod fixture', () => {
    expect(listFixtures('pods').sort()).toEqual(Object.keys(expected).sort());
  });

  for (const [file, mode] of Object.entries(expected)) {
    it(`${file} is ${mode}`, () => {
      expect(detectMode(fixturePod(file)).mode).toBe(mode);
    });
  }

  it('agrees with the raw YAML on where istio-proxy lives', () => {
    for (const file of Object.keys(expected)) {
      const raw = parse(readFixture('pods', file).split('\n---')[0] as string) as Pod;
      const init = (raw.spec.initContainers ?? []).find((c) => c.name === 'istio-proxy');
      const inContainers = raw.spec.containers.some((c) => c.name === 'istio-proxy');
      const mode = detectMode(fixturePod(file)).mode;
      if (init?.restartPolicy === 'Always') expect(mode).toBe('native');
      else if (inContainers) expect(mode).toBe('classic');
      else expect(mode).toBe('none');
    }
  });

  it('the opt-out pod has no status: unknown with the reason, hold fix offered', () => {
    const t = analyzePod(fixturePod('injected_native-sidecar-opt-out.yaml'));
    expect(t.verdicts.map((v) => v.verdict)).toEqual(['unknown']);
    expect(String(t.verdicts[0]?.evidence.reason)).toContain('no container statuses');
    expect(t.verdicts[0]?.fixes[0]?.yaml).toContain('holdApplicationUntilProxyStarts');
  });

  it('native fixtures are native but not observed (spec only, medium confidence), kube-dns is excluded', () => {
    const t = analyzePod(fixturePod('injected_native-sidecar.yaml'));
    // native-ok needs the status to show the order; the fixture has no status
    expect(t.verdicts.map((v) => [v.verdict, v.code, v.confidence])).toEqual([
      ['native-unobserved', 'MDX0109', 'medium'],
    ]);
    const dns = analyzePod(fixturePod('kube-dns_pod_with_status.yaml'));
    expect(dns.verdicts).toEqual([]);
    expect(dns.excluded).toContain('no istio-proxy');
    // 4 app containers read from the fixture status, all with start times.
    expect(dns.apps.map((a) => a.container)).toEqual([
      'kubedns',
      'dnsmasq',
      'sidecar',
      'prometheus-to-sd',
    ]);
    expect(dns.appStartedAt).toBe(Date.parse('2018-12-03T17:00:10Z'));
    expect(dns.workload).toEqual({
      kind: 'Deployment',
      name: 'kube-dns',
      namespace: 'kube-system',
    });
  });
});

describe('startup mode from annotations, mesh config and commands', () => {
  it('hold from the annotation (YAML or JSON) with istio-proxy first, with a note', () => {
    for (const value of [
      'holdApplicationUntilProxyStarts: true',
      '{ "holdApplicationUntilProxyStarts": true }',
    ]) {
      const m = detectMode(
        buildPod({
          mode: 'classic',
          proxyAt: 'first',
          annotations: { 'proxy.istio.io/config': value },
        }),
      );
      expect(m.mode).toBe('hold');
      expect(m.holdVisible).toBe(false);
      expect(m.notes.join(' ')).toContain('applies at injection');
    }
  });

  it('hold from the annotation, but the spec puts the app before istio-proxy: classic', () => {
    const m = detectMode(
      buildPod({
        mode: 'classic',
        annotations: { 'proxy.istio.io/config': 'holdApplicationUntilProxyStarts: true' },
      }),
    );
    expect(m.mode).toBe('classic');
    expect(m.holdIgnored).toMatch(/placed after app .*nothing holds the app/);
    expect(m.reasons[0]).toBe(m.holdIgnored);
  });

  it('hold from the mesh defaultConfig; the spec order wins; the annotation can turn it off', () => {
    const mesh = { from: 'configmap', hold: true } as const;
    expect(detectMode(buildPod({ mode: 'classic', proxyAt: 'first' }), mesh).mode).toBe('hold');
    // injected before the mesh setting: app first, nothing holds it
    expect(detectMode(buildPod({ mode: 'classic' }), mesh).mode).toBe('classic');
    const off = buildPod({
      mode: 'classic',
      proxyAt: 'first',
      annotations: { 'proxy.istio.io/config': 'holdApplicationUntilProxyStarts: false' },
    });
    expect(detectMode(off, mesh).mode).toBe('classic');
  });

  it('hold visible from postStart pilot-agent wait on the first container', () => {
    const m = detectMode(buildPod({ mode: 'hold' }));
    expect(m.mode).toBe('hold');
    expect(m.holdVisible).toBe(true);
    expect(m.reasons[0]).toContain('no app container before it');
  });

  it('postStart pilot-agent wait on an istio-proxy placed after the app holds nothing: classic', () => {
    const pod = buildPod({
      mode: 'hold',
      proxyAt: 'last',
      apps: [{ name: 'app', startedAt: 1 }],
      proxy: { startedAt: 1 },
      conditions: { ContainersReady: 9 },
    });
    const m = detectMode(pod);
    expect(m.mode).toBe('classic');
    expect(m.holdVisible).toBe(false);
    expect(m.holdIgnored).toContain('placed after app');
    expect(m.holdIgnored).toContain('the hook holds nothing');
    // The start order is not structurally held: no held-ok from the spec, and the evidence says why.
    const t = analyzePod(pod);
    const v = t.verdicts.find((x) => x.phase === 'startup');
    expect(v?.verdict).not.toBe('held-ok');
    expect(String(v?.evidence.holdIgnored)).toContain('holds nothing');
    // Same pod without any status: not held-ok from the spec either.
    const spec = analyzePod({ ...pod, status: undefined } as Pod);
    expect(spec.verdicts[0]?.verdict).toBe('unknown');
    // With several apps, only the ones before the proxy count.
    const mid = buildPod({
      mode: 'hold',
      apps: [{ name: 'a1' }, { name: 'a2' }],
    });
    mid.spec.containers = [
      mid.spec.containers[1]!,
      mid.spec.containers[0]!,
      mid.spec.containers[2]!,
    ];
    expect(detectMode(mid).holdIgnored).toContain('placed after a1');
  });

  it('wrapper when every app polls the proxy; classic when one does not', () => {
    const poll = [
      'sh',
      '-c',
      'until curl -fsI http://localhost:15021/healthz/ready; do sleep 1; done; exec /app',
    ];
    expect(
      detectMode(buildPod({ mode: 'classic', apps: [{ name: 'a', startedAt: 1, command: poll }] }))
        .mode,
    ).toBe('wrapper');
    const admin = [
      'sh',
      '-c',
      'while ! wget -q -O- 127.0.0.1:15000/ready; do sleep 1; done; ./run',
    ];
    expect(detectMode(buildPod({ mode: 'classic', apps: [{ name: 'a', args: admin }] })).mode).toBe(
      'wrapper',
    );
    const mixed = buildPod({
      mode: 'classic',
      apps: [
        { name: 'a', command: poll },
        { name: 'b', command: ['/b'] },
      ],
    });
    expect(detectMode(mixed).mode).toBe('classic');
  });

  it('gateway and none', () => {
    expect(detectMode(buildPod({ mode: 'gateway' })).mode).toBe('gateway');
    expect(detectMode(buildPod({ mode: 'none' })).mode).toBe('none');
    const g = analyzePod(buildPod({ mode: 'gateway' }));
    expect(g.verdicts).toEqual([]);
    expect(g.excluded).toContain('gateway');
  });
});

describe('proxies that are their pod’s own workload', () => {
  it('takes an arg-less istio-proxy alone in its pod (a custom ingress gateway) for a gateway', () => {
    // these pods give istio-proxy no `proxy router` arg: a rule on args alone took them for
    // sidecars without an app and judged their start order
    for (const file of ['gateway-custom-ingressgateway.yaml', 'k8sgateway-selector.yaml']) {
      const pods = analyzerPods(file);
      expect(pods.length).toBeGreaterThan(0);
      for (const pod of pods) {
        expect(pod.spec.containers.map((c) => c.args ?? null)).not.toContainEqual([
          'proxy',
          'router',
        ]);
        const m = detectMode(pod);
        expect(m.mode).toBe('gateway');
        expect(m.reasons.join(' ')).toContain('not a sidecar');
      }
    }
  });

  it('takes a waypoint for a gateway, with no start-order verdict', () => {
    const pod = buildPod({ mode: 'gateway', name: 'waypoint-5d8f7-abcde' });
    const proxy = pod.spec.containers[0] as Pod['spec']['containers'][number];
    proxy.args = ['proxy', 'waypoint', '--domain', '$(POD_NAMESPACE).svc.cluster.local'];
    expect(detectMode(pod).mode).toBe('gateway');
    const t = analyzePod(pod);
    expect(t.verdicts).toEqual([]);
    expect(t.excluded).toContain('no app to race');
  });

  it('keeps a sidecar a sidecar when the app sits beside it', () => {
    expect(detectMode(buildPod({ mode: 'classic' })).mode).toBe('classic');
  });
});
