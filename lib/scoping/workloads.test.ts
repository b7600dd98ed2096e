import { describe, it, expect } from 'vitest';
import type { Pod } from '../kube/types';
import { makePod } from '../../server/sim/mesh/testworld';
import { hitDestination, indexTraffic } from './observations';
import { analyzerPods } from '../../test-support/fixtures';
import { sidecarWorkloads, isScopablePod, uniqueSelector } from './workloads';

function owned(pod: Pod, rs: string, hash: string): Pod {
  pod.metadata.labels = { ...(pod.metadata.labels ?? {}), 'pod-template-hash': hash };
  pod.metadata.ownerReferences = [{ kind: 'ReplicaSet', name: `${rs}-${hash}`, controller: true }];
  return pod;
}

describe('sidecarWorkloads and uniqueSelector', () => {
  const pods = [
    owned(
      makePod('web-7f9-a', 'shop', '10.0.0.1', { labels: { app: 'web', version: 'v1' } }),
      'web',
      '7f9',
    ),
    owned(
      makePod('web-7f9-b', 'shop', '10.0.0.2', { labels: { app: 'web', version: 'v1' } }),
      'web',
      '7f9',
    ),
    owned(
      makePod('web2-55c-a', 'shop', '10.0.0.3', { labels: { app: 'web', version: 'v2' } }),
      'web2',
      '55c',
    ),
    makePod('gw', 'shop', '10.0.0.4', { labels: { app: 'gw' }, proxy: 'gateway' }),
    makePod('plain', 'shop', '10.0.0.5', { labels: { app: 'plain' }, proxy: 'none' }),
  ];

  it('groups sidecar pods by owner and skips gateways and unmeshed pods', () => {
    const w = sidecarWorkloads(pods);
    expect(w.map((x) => [x.key, x.kind, x.pods.length])).toEqual([
      ['shop/web', 'Deployment', 2],
      ['shop/web2', 'Deployment', 1],
    ]);
  });

  it('needs app+version when app alone also selects another workload, never the pod-template-hash', () => {
    const [web] = sidecarWorkloads(pods);
    expect(web && uniqueSelector(web, pods)).toEqual({ app: 'web', version: 'v1' });
  });

  it('returns null when no label set singles the workload out', () => {
    const twins = [
      makePod('a', 'x', '1', { labels: { app: 'same' } }),
      makePod('b', 'x', '2', { labels: { app: 'same' } }),
    ];
    const [a] = sidecarWorkloads(twins);
    expect(a && uniqueSelector(a, twins)).toBeNull();
  });
});

describe('observations', () => {
  it('turns cluster names and hosts into destinations, skipping what names none', () => {
    expect(hitDestination({ cluster: 'outbound|80|v1|A.ns.svc.cluster.local', count: 1 })).toEqual({
      host: 'a.ns.svc.cluster.local',
      port: 80,
    });
    expect(
      hitDestination({ cluster: 'outbound_.8000_._.httpbin.default.svc.cluster.local', count: 2 }),
    ).toEqual({ host: 'httpbin.default.svc.cluster.local', port: 8000 });
    expect(hitDestination({ cluster: 'PassthroughCluster', count: 1 })).toEqual({
      host: 'PassthroughCluster',
      port: null,
    });
    expect(hitDestination({ cluster: 'outbound|80||a.ns.svc.cluster.local', count: 0 })).toBeNull();
    expect(hitDestination({ cluster: 'inbound|9080||', count: 5 })).toBeNull();
    expect(hitDestination({ cluster: 'sds-grpc', count: 5 })).toBeNull();
    expect(hitDestination({ host: 'unknown', count: 5 })).toBeNull();
    expect(hitDestination({ host: 'api.example.com', port: 443, count: 5 })).toEqual({
      host: 'api.example.com',
      port: 443,
    });
  });

  it('merges sources per destination and records unavailable sources and strays', () => {
    const pods = [makePod('a', 'ns', '1', { labels: { app: 'a' } })];
    const idx = indexTraffic(
      [
        {
          source: 'access-log',
          namespace: 'ns',
          pod: 'a',
          available: true,
          hits: [{ cluster: 'outbound|80||b.ns.svc.cluster.local', count: 2 }],
        },
        {
          source: 'prometheus',
          namespace: 'ns',
          workload: 'a',
          available: true,
          hits: [{ host: 'b.ns.svc.cluster.local', count: 9 }],
        },
        {
          source: 'envoy-stats',
          namespace: 'ns',
          pod: 'a',
          available: false,
          error: 'timeout',
          hits: [{ host: 'c', count: 1 }],
        },
        { source: 'envoy-stats', namespace: 'ns', pod: 'zz', available: true, hits: [] },
      ],
      sidecarWorkloads(pods),
    );
    const t = idx.byWorkload.get('ns/a');
    expect(t?.destinations.get('b.ns.svc.cluster.local')?.counts).toEqual({
      'access-log': 2,
      prometheus: 9,
    });
    expect(t?.sources.map((s) => [s.source, s.available, s.observations])).toEqual([
      ['envoy-stats', false, 1],
      ['access-log', true, 1],
      ['prometheus', true, 1],
    ]);
    expect(idx.unattributed).toBe(1);
    expect(t?.destinations.has('c')).toBe(false);
  });
});

describe('isScopablePod', () => {
  it('takes sidecars only: istiod applies a Sidecar to no gateway or waypoint', () => {
    const sidecar = makePod('web-1', 'shop', '10.0.0.1', { labels: { app: 'web' } });
    const waypoint = makePod('waypoint-1', 'shop', '10.0.0.9', {
      labels: { 'gateway.networking.k8s.io/gateway-name': 'waypoint' },
      proxy: 'gateway',
    });
    for (const c of waypoint.spec.containers) if (c.args) c.args = ['proxy', 'waypoint'];
    expect(isScopablePod(sidecar)).toBe(true);
    expect(isScopablePod(waypoint)).toBe(false);
    expect(sidecarWorkloads([sidecar, waypoint]).map((w) => w.key)).toEqual(['shop/web-1']);
  });

  it('leaves out Istio’s arg-less gateway pods and keeps the injector’s sidecars', () => {
    const gateways = analyzerPods('gateway-custom-ingressgateway.yaml');
    expect(gateways.length).toBeGreaterThan(0);
    expect(gateways.filter(isScopablePod)).toEqual([]);
    const injected = analyzerPods('injection.yaml');
    expect(injected.some(isScopablePod)).toBe(true);
  });

  it('leaves out pods that ended', () => {
    const done = makePod('job-1', 'shop', '10.0.0.2', { labels: { app: 'job' } });
    done.status = { ...done.status, phase: 'Succeeded' };
    expect(isScopablePod(done)).toBe(false);
  });
});
