import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { readFixture } from '../../test-support/fixtures';
import { hasProxy, proxyContainer } from './proxy-container';
import type { Pod } from '../kube/types';

// the injector's output files end with a '---' separator: take the first document
const pod = (file: string) =>
  parseAllDocuments(readFixture('pods', file))
    .map((d) => d.toJS() as Pod | null)
    .find((d) => d !== null) as Pod;

/** A ztunnel pod as Istio's ztunnel DaemonSet makes it (manifests/charts/ztunnel). */
const ztunnel: Pod = {
  metadata: { name: 'ztunnel-n5bg2', namespace: 'istio-system', labels: { app: 'ztunnel' } },
  spec: {
    containers: [
      { name: 'istio-proxy', image: 'docker.io/istio/ztunnel:1.24.2', args: ['proxy', 'ztunnel'] },
    ],
  },
};

describe('proxyContainer', () => {
  it('finds the classic sidecar of real injector output (native sidecars opted out)', () => {
    const p = pod('injected_native-sidecar-opt-out.yaml');
    expect(proxyContainer(p)?.name).toBe('istio-proxy');
    expect(p.spec.containers).toContain(proxyContainer(p));
    expect(hasProxy(p)).toBe(true);
  });

  it('finds the native sidecar in initContainers (restartPolicy Always)', () => {
    for (const file of ['injected_native-sidecar.yaml', 'injected_pod.yaml']) {
      const p = pod(file);
      const c = proxyContainer(p);
      expect(c?.name, file).toBe('istio-proxy');
      expect(c?.restartPolicy, file).toBe('Always');
      expect(p.spec.initContainers, file).toContain(c);
      expect(hasProxy(p), file).toBe(true);
    }
  });

  it('takes no init container without restartPolicy Always, and no pod without istio-proxy', () => {
    const p = pod('injected_native-sidecar.yaml');
    const blocked: Pod = {
      ...p,
      spec: {
        ...p.spec,
        initContainers: (p.spec.initContainers ?? []).map((c) => ({
          ...c,
          restartPolicy: undefined,
        })),
      },
    };
    expect(proxyContainer(blocked)).toBeUndefined();
    expect(proxyContainer(pod('kube-dns_pod_with_status.yaml'))).toBeUndefined();
    expect(hasProxy(pod('kube-dns_pod_with_status.yaml'))).toBe(false);
  });

  it('says a ztunnel pod has no proxy although its container is named istio-proxy', () => {
    expect(proxyContainer(ztunnel)).toBeUndefined();
    expect(hasProxy(ztunnel)).toBe(false);
  });

  it('says a malformed pod has no proxy', () => {
    expect(proxyContainer({ metadata: { name: 'x' } } as unknown as Pod)).toBeUndefined();
    expect(
      hasProxy({ metadata: { name: 'x' }, spec: { containers: 'no' } } as unknown as Pod),
    ).toBe(false);
  });
});
