import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { analyzePod } from './analyze';
import { readFixture } from '../../test-support/fixtures';
import type { Namespace, Pod } from '../kube/types';

function fixturePod(file: string): Pod {
  const docs = parseAllDocuments(readFixture('pods', file)).map((d) => d.toJS() as Pod);
  const pod = docs.find((d) => (d as Pod & { kind?: string }).kind === 'Pod');
  if (!pod) throw new Error(`${file}: no Pod`);
  return structuredClone(pod);
}

const T = Date.parse('2025-03-01T10:00:00Z');
const iso = (s: number) => new Date(T + s * 1000).toISOString();

describe('ambient pods in the words', () => {
  it('a pod ztunnel captured is in the ambient mesh, not "not in the mesh"', () => {
    const pod = fixturePod('kube-dns_pod_with_status.yaml');
    expect(analyzePod(pod).excluded).toBe('no istio-proxy: not in the mesh');
    pod.metadata.annotations = {
      ...pod.metadata.annotations,
      'ambient.istio.io/redirection': 'enabled',
    };
    const t = analyzePod(pod);
    expect(t.mode).toBe('ambient');
    expect(t.excluded).toBe('in the ambient mesh (ztunnel): no sidecar to race');
    expect(t.verdicts).toEqual([]);
    expect(t.modeReasons[0]).toMatch(/ambient\.istio\.io\/redirection: enabled/);
  });

  it('the namespace label enrols a pod where the namespace is known; a pod label opts out', () => {
    const pod = fixturePod('kube-dns_pod_with_status.yaml');
    const ns: Namespace = {
      metadata: {
        name: pod.metadata.namespace ?? '',
        labels: { 'istio.io/dataplane-mode': 'ambient' },
      },
    };
    expect(analyzePod(pod, { namespaces: [ns] }).mode).toBe('ambient');
    pod.metadata.labels = { ...pod.metadata.labels, 'istio.io/dataplane-mode': 'none' };
    expect(analyzePod(pod, { namespaces: [ns] }).mode).toBe('none');
  });
});

describe('native sidecar: the proxy-ready bound', () => {
  /** Istio's injected native pod (real spec) with the status a kubelet writes for it. */
  function nativePod(): Pod {
    const pod = fixturePod('injected_native-sidecar.yaml');
    pod.metadata.uid = 'uid-native';
    const running = (name: string, s: number, ready: boolean) => ({
      name,
      ready,
      started: true,
      restartCount: 0,
      image: 'x',
      imageID: '',
      state: { running: { startedAt: iso(s) } },
    });
    pod.status = {
      phase: 'Running',
      conditions: [
        { type: 'PodScheduled', status: 'True', lastTransitionTime: iso(0) },
        { type: 'Initialized', status: 'True', lastTransitionTime: iso(4) },
        { type: 'ContainersReady', status: 'True', lastTransitionTime: iso(5) },
        { type: 'Ready', status: 'True', lastTransitionTime: iso(5) },
      ],
      initContainerStatuses: [
        {
          name: 'istio-init',
          ready: true,
          restartCount: 0,
          image: 'x',
          imageID: '',
          state: {
            terminated: { exitCode: 0, startedAt: iso(1), finishedAt: iso(1), reason: 'Completed' },
          },
        },
        running('istio-proxy', 2, true),
      ],
      containerStatuses: [running('hello', 5, true), running('other-sidecar', 5, true)],
    } as Pod['status'];
    return pod;
  }

  it('is Initialized (earlier than ContainersReady) when istio-proxy has a startupProbe', () => {
    const t = analyzePod(nativePod());
    expect(t.mode).toBe('native');
    expect(t.proxyReady.at).toBe(T + 4000);
    expect(t.proxyReady.upperBoundOnly).toBe(true);
    expect(t.proxyReady.notes.join(' ')).toMatch(/Initialized is when the native sidecar passed/);
  });

  it('falls back to ContainersReady without a startupProbe (started then implies nothing)', () => {
    const pod = nativePod();
    const proxy = pod.spec.initContainers?.find((c) => c.name === 'istio-proxy');
    if (proxy) delete proxy.startupProbe;
    const t = analyzePod(pod);
    expect(t.proxyReady.at).toBe(T + 5000);
    expect(t.proxyReady.notes.join(' ')).toMatch(/ContainersReady is when all containers/);
  });
});
