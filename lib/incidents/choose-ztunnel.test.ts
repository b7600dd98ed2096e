import { describe, expect, it } from 'vitest';
import type { Pod } from '../kube/types';
import { podKeyOfObject } from '../refs/pod-ref';
import { clientCandidates } from './choose';

/**
 * A node's ztunnel logs the connections of the ambient pods on its node: with a namespace
 * filter, it is one of that namespace's clients only when the namespace has an ambient pod on
 * its node. Pods as the ambient CNI leaves them (`ambient.istio.io/redirection: enabled`).
 */
const ztunnel = (node: string): Pod => ({
  metadata: {
    name: `ztunnel-${node}`,
    namespace: 'istio-system',
    labels: { app: 'ztunnel', 'istio.io/dataplane-mode': 'none' },
  },
  spec: { nodeName: node, containers: [{ name: 'istio-proxy' }] },
});
const sidecar = (ns: string, name: string, node: string): Pod => ({
  metadata: { name, namespace: ns },
  spec: { nodeName: node, containers: [{ name: 'app' }, { name: 'istio-proxy' }] },
});
const ambient = (ns: string, name: string, node: string): Pod => ({
  metadata: { name, namespace: ns, annotations: { 'ambient.istio.io/redirection': 'enabled' } },
  spec: { nodeName: node, containers: [{ name: 'app' }] },
});
const labelled = (ns: string, name: string, node: string): Pod => ({
  metadata: { name, namespace: ns, labels: { 'istio.io/dataplane-mode': 'ambient' } },
  spec: { nodeName: node, containers: [{ name: 'app' }] },
});

const PODS = [
  ztunnel('n1'),
  ztunnel('n2'),
  ztunnel('n3'),
  sidecar('shop', 'cart-0', 'n1'),
  sidecar('shop', 'web-0', 'n2'),
  ambient('mesh-ambient', 'api-0', 'n2'),
  labelled('mesh-labelled', 'api-0', 'n3'),
];
const names = (q: Parameters<typeof clientCandidates>[1]) =>
  clientCandidates(PODS, q).map(podKeyOfObject);

describe('ztunnels among the clients of a namespace', () => {
  it('a namespace with no ambient pod has no ztunnel among its clients', () => {
    expect(names({ namespace: 'shop' })).toEqual(['shop/cart-0', 'shop/web-0']);
  });

  it("a namespace's ambient pods bring the ztunnels of their nodes only", () => {
    expect(names({ namespace: 'mesh-ambient' })).toEqual(['istio-system/ztunnel-n2']);
    expect(names({ namespace: 'mesh-labelled' })).toEqual(['istio-system/ztunnel-n3']);
  });

  it('without a namespace filter every ztunnel is a candidate; one asked for is taken', () => {
    expect(names({}).filter((n) => n.includes('ztunnel'))).toHaveLength(3);
    expect(names({ namespace: 'shop', client: 'istio-system/ztunnel-n3' })).toEqual([
      'istio-system/ztunnel-n3',
    ]);
  });
});
