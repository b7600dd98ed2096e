import { describe, expect, it } from 'vitest';
import { podProxy } from '../dataplane/proxy-container';
import type { Gateway, Namespace, Pod } from '../kube/types';
import { buildInventory } from './build';

const ready = [{ type: 'Ready', status: 'True' }];
const ns = (name: string, labels: Record<string, string> = {}): Namespace => ({
  metadata: { name, labels },
});
const app = (name: string, node: string, labels: Record<string, string> = {}): Pod => ({
  metadata: { name, namespace: 'shop', labels },
  spec: { nodeName: node, containers: [{ name: 'app' }] },
  status: { podIP: '10.0.0.1', conditions: ready },
});
const ztunnel = (node: string): Pod => ({
  metadata: { name: `ztunnel-${node}`, namespace: 'istio-system', labels: { app: 'ztunnel' } },
  spec: {
    nodeName: node,
    containers: [
      { name: 'istio-proxy', image: 'docker.io/istio/ztunnel:1.27.0', args: ['proxy', 'ztunnel'] },
    ],
  },
  status: { conditions: ready },
});
const waypointPod: Pod = {
  metadata: {
    name: 'shop-wp-6f7d8-abcde',
    namespace: 'shop',
    labels: { 'gateway.networking.k8s.io/gateway-name': 'shop-wp' },
  },
  spec: { nodeName: 'n1', containers: [{ name: 'istio-proxy', args: ['proxy', 'waypoint'] }] },
  status: { conditions: ready },
};
const gw: Gateway = {
  metadata: { name: 'shop-wp', namespace: 'shop' },
  spec: { gatewayClassName: 'istio-waypoint' },
};

describe('ambient in the inventory', () => {
  it('is not an Envoy proxy of its pod: ztunnel', () => {
    expect(podProxy(ztunnel('n1'))).toBeNull();
    expect(podProxy(waypointPod)?.placement).toBe('waypoint');
  });

  it('counts ambient namespaces and pods, ztunnels per node and waypoint users', () => {
    const inv = buildInventory({
      namespaces: [
        ns('shop', { 'istio.io/dataplane-mode': 'ambient', 'istio.io/use-waypoint': 'shop-wp' }),
        ns('istio-system'),
      ],
      pods: [
        app('a', 'n1'),
        app('b', 'n2'),
        app('opt-out', 'n2', { 'istio.io/dataplane-mode': 'none' }),
        ztunnel('n1'),
        ztunnel('n2'),
        waypointPod,
      ],
      services: [],
      sidecars: [],
      gateways: [gw],
      destinationRules: 0,
      virtualServices: 0,
      serviceEntries: 0,
      now: new Date(0),
    });
    expect(inv.totals).toMatchObject({
      ambientNamespaces: 1,
      ambientPods: 2,
      ztunnels: 2,
      waypoints: 1,
    });
    expect(inv.ambient.ztunnels.map((z) => [z.node, z.ambientPods])).toEqual([
      ['n1', 1],
      ['n2', 1],
    ]);
    expect(inv.ambient.waypoints).toEqual([
      { namespace: 'shop', name: 'shop-wp', gateway: true, pods: 1, readyPods: 1, usedBy: 2 },
    ]);
    const shop = inv.namespaces.find((n) => n.name === 'shop');
    expect(shop).toMatchObject({ dataplane: 'ambient', ambientPods: 2, waypoint: 'shop/shop-wp' });
    expect(inv.pods.find((p) => p.name === 'opt-out')?.dataplane.mode).toBe('none');
    // the waypoint's own pod runs Envoy: a sidecar-mode data plane of its own, never "ambient"
    expect(inv.pods.find((p) => p.name === waypointPod.metadata.name)?.dataplane.mode).toBe(
      'sidecar',
    );
  });
});
