import type { Pod } from '../../lib/kube/types';
import type { Scenario } from '../../server/sim/world/types';

export const ADAPTER_POD = 'payments-7d4b9c8f6d-x2x9q';
export const ISTIOD_POD = 'istiod-5f4c8b7d9-abcde';

function istiodPod(): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: ISTIOD_POD, namespace: 'istio-system', labels: { app: 'istiod' } },
    spec: {
      nodeName: 'node-a',
      containers: [
        {
          name: 'discovery',
          image: 'docker.io/istio/pilot:1.24.2',
          ports: [{ name: 'http-monitoring', containerPort: 15014 }],
        },
      ],
    },
    status: {
      phase: 'Running',
      podIP: '10.1.0.2',
      podIPs: [{ ip: '10.1.0.2' }],
      containerStatuses: [
        {
          name: 'discovery',
          ready: true,
          restartCount: 0,
          state: { running: { startedAt: '2025-12-31T22:00:00Z' } },
        },
      ],
    },
  };
}

function meshedPod(name: string, app: string, ip: string): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'shop', labels: { app } },
    spec: {
      nodeName: 'node-a',
      containers: [
        { name: app, image: `shop/${app}:1` },
        {
          name: 'istio-proxy',
          image: 'docker.io/istio/proxyv2:1.24.2',
          args: ['proxy', 'sidecar'],
          ports: [{ name: 'http-envoy-prom', containerPort: 15090 }],
        },
      ],
    },
    status: {
      phase: 'Running',
      podIP: ip,
      podIPs: [{ ip }],
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2025-12-31T23:00:00Z' }],
      containerStatuses: [
        {
          name: app,
          ready: true,
          restartCount: 0,
          state: { running: { startedAt: '2025-12-31T23:00:00Z' } },
        },
        {
          name: 'istio-proxy',
          ready: true,
          restartCount: 0,
          state: { running: { startedAt: '2025-12-31T23:00:00Z' } },
        },
      ],
    },
  };
}

/** A tiny world for adapter tests: two meshed pods, istiod, a Sidecar, the mesh config, three log lines. */
export const adapterScenario: Scenario = {
  name: 'adapter-test',
  description: 'two meshed pods in shop, for the adapter tests',
  start(ctx) {
    ctx.store.upsert('namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'shop', labels: { 'istio-injection': 'enabled' } },
    });
    ctx.store.upsert('namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'istio-system' },
    });
    ctx.store.upsert('pods', meshedPod(ADAPTER_POD, 'payments', '10.1.0.10'));
    ctx.store.upsert('pods', meshedPod('checkout-1', 'checkout', '10.1.0.11'));
    ctx.store.upsert('pods', istiodPod());
    ctx.store.upsert('sidecars', {
      apiVersion: 'networking.istio.io/v1',
      kind: 'Sidecar',
      metadata: { name: 'default', namespace: 'shop' },
      spec: { egress: [{ hosts: ['./*', 'istio-system/*'] }] },
    });
    ctx.store.upsert('configmaps', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'istio', namespace: 'istio-system' },
      data: { mesh: 'defaultConfig:\n  discoveryAddress: istiod.istio-system.svc:15012\n' },
    });
    const at = (s: string) => new Date(`2025-12-31T23:59:${s}Z`);
    ctx.logs.append('shop', ADAPTER_POD, 'istio-proxy', at('00'), 'first');
    ctx.logs.append('shop', ADAPTER_POD, 'istio-proxy', at('40'), 'second');
    ctx.logs.append('shop', ADAPTER_POD, 'istio-proxy', at('50'), 'third');
  },
};
