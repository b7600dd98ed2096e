import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { readFixture } from '../../test-support/fixtures';
import { isWaypointPod, isZtunnelPod, namespaceDataplane, podDataplane } from './mode';
import type { Namespace, Pod } from '../kube/types';

function fixturePod(file: string): Pod {
  const docs = parseAllDocuments(readFixture('pods', file)).map((d) => d.toJS() as Pod | null);
  const pod = docs.find((d) => d?.kind === 'Pod');
  if (!pod) throw new Error(`${file}: no Pod`);
  return pod;
}

const ns = (name: string, labels: Record<string, string> = {}): Namespace => ({
  metadata: { name, labels },
});
const pod = (
  name: string,
  labels: Record<string, string> = {},
  extra: Partial<Pod['spec']> = {},
  annotations: Record<string, string> = {},
): Pod => ({
  metadata: { name, namespace: 'shop', labels, annotations },
  spec: { containers: [{ name: 'app' }], ...extra },
});

const ambientNs = ns('shop', {
  'istio.io/dataplane-mode': 'ambient',
  'istio.io/use-waypoint': 'shop-wp',
});

describe('data-plane mode', () => {
  it('enrols a pod through its namespace and names the namespace waypoint', () => {
    const d = podDataplane(pod('a'), ambientNs);
    expect(d.mode).toBe('ambient');
    expect(d.waypoint).toBe('shop/shop-wp');
    expect(namespaceDataplane(ambientNs)).toBe('ambient');
  });

  it('lets the pod label win both ways', () => {
    expect(podDataplane(pod('a', { 'istio.io/dataplane-mode': 'none' }), ambientNs).mode).toBe(
      'none',
    );
    expect(podDataplane(pod('a', { 'istio.io/dataplane-mode': 'ambient' }), ns('shop')).mode).toBe(
      'ambient',
    );
    const own = podDataplane(pod('a', { 'istio.io/use-waypoint': 'none' }), ambientNs);
    expect(own.waypoint).toBeNull();
  });

  it('never captures a sidecar pod or a hostNetwork pod', () => {
    const sidecar = fixturePod('injected_native-sidecar.yaml');
    sidecar.metadata.namespace = 'shop';
    expect(podDataplane(sidecar, ambientNs).mode).toBe('sidecar');
    expect(podDataplane(pod('h', {}, { hostNetwork: true }), ambientNs).mode).toBe('none');
    const broken = pod('b', {}, {}, { 'sidecar.istio.io/status': '{}' });
    expect(podDataplane(broken, ambientNs).mode).toBe('none');
  });

  it('recognises ztunnel and waypoint pods', () => {
    const zt: Pod = {
      metadata: { name: 'ztunnel-x', namespace: 'istio-system', labels: { app: 'ztunnel' } },
      spec: { containers: [{ name: 'istio-proxy' }] },
    };
    expect(isZtunnelPod(zt)).toBe(true);
    const wp: Pod = {
      metadata: { name: 'wp', namespace: 'shop' },
      spec: { containers: [{ name: 'istio-proxy', args: ['proxy', 'waypoint'] }] },
    };
    expect(isWaypointPod(wp)).toBe(true);
    expect(isWaypointPod(pod('a'))).toBe(false);
  });
});
