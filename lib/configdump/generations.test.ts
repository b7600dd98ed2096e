import { describe, expect, it } from 'vitest';
import { analyzeDump, type ClusterReport } from './report';

function report(dump: unknown): ClusterReport {
  const a = analyzeDump(JSON.stringify(dump, null, 2));
  if (a.kind !== 'envoy') throw new Error(`not read: ${JSON.stringify(a)}`);
  return a.report;
}

const cluster = (name: string, type = 'EDS') => ({ name, type });

describe('every config-dump generation is counted exactly', () => {
  it('Istio 1.0 (Envoy 1.7 v2alpha): configs map, camelCase, bare static resources', () => {
    const r = report({
      configs: {
        clusters: {
          staticClusters: [cluster('xds-grpc', 'STRICT_DNS'), cluster('zipkin', 'STRICT_DNS')],
          dynamicActiveClusters: [
            { versionInfo: '1', cluster: cluster('outbound|80||a.ns.svc.cluster.local') },
            { versionInfo: '1', cluster: cluster('inbound|80||a.ns.svc.cluster.local') },
          ],
          dynamicWarmingClusters: [{ cluster: cluster('outbound|81||a.ns.svc.cluster.local') }],
        },
        listeners: {
          staticListeners: [{ name: 'virtual' }],
          dynamicActiveListeners: [{ listener: { name: 'l1' } }, { listener: { name: 'l2' } }],
          dynamicDrainingListeners: [{ listener: { name: 'l0' } }],
        },
        routes: {
          staticRouteConfigs: [{ routeConfig: { name: 'r0' } }],
          dynamicRouteConfigs: [{ routeConfig: { name: '80' } }],
        },
      },
    });
    expect(r.errors).toEqual([]);
    expect(r.summary).toMatchObject({ total: 4, static: 2, dynamic: 2 });
    expect(r.summary.byDirection).toEqual({ inbound: 1, outbound: 1, other: 2 });
    expect(r.warmingClusters).toBe(1);
    expect(r.listeners).toEqual({ static: 1, dynamic: 2, warming: 0, draining: 1 });
    expect(r.routes).toEqual({ static: 1, dynamic: 1, warming: 0, draining: 0 });
  });

  it('v3 list layout, snake_case, wrapped static clusters; a bad entry is an error with a line', () => {
    const r = report({
      configs: [
        {
          '@type': 'type.googleapis.com/envoy.admin.v3.ClustersConfigDump',
          static_clusters: [{ cluster: cluster('prometheus_stats', 'STATIC') }, { cluster: {} }],
          dynamic_active_clusters: [
            { cluster: cluster('outbound|9080||r.default.svc.cluster.local') },
          ],
        },
        {
          '@type': 'type.googleapis.com/envoy.admin.v3.ListenersConfigDump',
          dynamic_listeners: [
            { active_state: {} },
            { warming_state: {} },
            { active_state: {}, draining_state: {} },
          ],
        },
      ],
    });
    expect(r.summary).toMatchObject({ total: 2, static: 1, dynamic: 1 });
    expect(r.listeners).toEqual({ static: 0, dynamic: 2, warming: 1, draining: 1 });
    expect(r.errors).toEqual([
      expect.objectContaining({
        path: 'configs[0].static_clusters[1]',
        message: 'configs[0].static_clusters[1] has a cluster without a name',
        line: 12, // the `{` of the entry, pretty-printed
        column: 9,
      }),
    ]);
  });
});
