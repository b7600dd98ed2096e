import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { analyzerPods, readFixture } from '../../test-support/fixtures';
import {
  autoDecision,
  decideNative,
  injectorSetting,
  kubeletMinor,
  nodeVersions,
} from './native-sidecar';
import { podProxy } from './proxy-container';
import type { Node, Pod } from '../kube/types';

function fixturePod(file: string): Pod {
  const docs = parseAllDocuments(readFixture('pods', file)).map((d) => d.toJS() as Pod | null);
  const pod = docs.find((d) => d?.kind === 'Pod');
  if (!pod) throw new Error(`${file}: no Pod`);
  return pod;
}

const node = (name: string, v: string | undefined): Node => ({
  metadata: { name },
  status: v === undefined ? {} : { nodeInfo: { kubeletVersion: v } },
});

const istiod = (env: Record<string, string>, image = 'docker.io/istio/pilot:1.28.1'): Pod => ({
  metadata: { name: 'istiod-abc', namespace: 'istio-system' },
  spec: {
    containers: [
      {
        name: 'discovery',
        image,
        env: Object.entries(env).map(([name, value]) => ({ name, value })),
      },
    ],
  },
});

describe('kubelet versions', () => {
  it('reads the minor of real kubelet version strings', () => {
    expect(kubeletMinor('v1.33.1')).toBe(33);
    expect(kubeletMinor('v1.28.3+k3s1')).toBe(28);
    expect(kubeletMinor('v1.32.4-eks-1234')).toBe(32);
    expect(kubeletMinor('1.34.0')).toBe(34);
    expect(kubeletMinor('garbage')).toBeNull();
    expect(kubeletMinor(undefined)).toBeNull();
  });
});

describe('auto mode on the nodes', () => {
  const upgraded = nodeVersions([node('a', 'v1.33.2'), node('b', 'v1.34.0')]);
  const mixed = nodeVersions([node('a', 'v1.33.2'), node('old', 'v1.32.9')]);

  it('is native only when every node runs kubelet 1.33 or later', () => {
    expect(autoDecision(upgraded).native).toBe(true);
    const d = autoDecision(mixed);
    expect(d.native).toBe(false);
    expect(d.why).toContain('old (v1.32.9)');
  });

  it('treats an unreadable version as too old and no nodes as classic', () => {
    expect(autoDecision(nodeVersions([node('a', 'v1.33.0'), node('b', undefined)])).native).toBe(
      false,
    );
    expect(autoDecision([]).native).toBe(false);
  });

  it('judges a pod already bound to a known node on that node alone', () => {
    expect(autoDecision(mixed, 'a').native).toBe(true);
    expect(autoDecision(mixed, 'old').native).toBe(false);
    // an unknown node falls back to all nodes
    expect(autoDecision(mixed, 'gone').native).toBe(false);
  });
});

describe('the annotation wins over the setting', () => {
  const nodes = nodeVersions([node('a', 'v1.33.0')]);
  it('follows the injection template: anything but "false" is native', () => {
    const ann = (v: string) => ({ 'sidecar.istio.io/nativeSidecar': v });
    expect(decideNative(ann('false'), 'true', nodes).native).toBe(false);
    expect(decideNative(ann('true'), 'false', []).native).toBe(true);
    expect(decideNative(ann(''), 'false', nodes).native).toBe(false);
    expect(decideNative({}, 'true', []).native).toBe(true);
    expect(decideNative({}, 'auto', nodes).native).toBe(true);
    expect(decideNative(undefined, 'false', nodes).native).toBe(false);
  });

  it('matches the published opt-out fixture: annotation false, proxy a plain container', () => {
    const pod = fixturePod('injected_native-sidecar-opt-out.yaml');
    expect(podProxy(pod)?.placement).toBe('sidecar');
    expect(decideNative(pod.metadata.annotations, 'true', nodes).native).toBe(false);
    const native = fixturePod('injected_native-sidecar.yaml');
    expect(podProxy(native)?.placement).toBe('native-sidecar');
  });
});

describe("istiod's setting", () => {
  it('reads ENABLE_NATIVE_SIDECARS from the discovery container', () => {
    expect(injectorSetting([istiod({ ENABLE_NATIVE_SIDECARS: 'true' })]).value).toBe('true');
    expect(injectorSetting([istiod({ ENABLE_NATIVE_SIDECARS: 'auto' })]).value).toBe('auto');
    const odd = injectorSetting([istiod({ ENABLE_NATIVE_SIDECARS: 'yes' })]);
    expect(odd.value).toBe('false');
    expect(odd.notes[0]).toContain('treats it as false');
  });

  it('defaults to auto from 1.27 and to false before', () => {
    expect(injectorSetting([istiod({})]).value).toBe('auto');
    expect(injectorSetting([istiod({}, 'docker.io/istio/pilot:1.26.4')]).value).toBe('false');
  });
});

describe('gateways in Istio analyzer test data', () => {
  it('takes an istio-proxy with no app beside it for a gateway, args or none', () => {
    // a Gateway API deployment's pod and a custom ingress gateway, both without args
    for (const file of ['k8sgateway-selector.yaml', 'gateway-custom-ingressgateway.yaml']) {
      const pods = analyzerPods(file);
      expect(pods.length).toBeGreaterThan(0);
      for (const p of pods) expect(podProxy(p)?.placement).toBe('gateway');
    }
    // the injector's sidecar pods keep an app beside the proxy
    const injected = analyzerPods('injection.yaml');
    expect(injected.map((p) => podProxy(p)?.placement ?? null)).toContain('sidecar');
  });
});
