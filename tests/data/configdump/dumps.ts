/**
 * Hand-made config dump pieces for tests (snake_case, as Envoy's /config_dump writes them).
 * Not a test file itself; imported by *.test.ts only.
 */
export const CLUSTERS_TYPE = 'type.googleapis.com/envoy.admin.v3.ClustersConfigDump';
export const BOOTSTRAP_TYPE = 'type.googleapis.com/envoy.admin.v3.BootstrapConfigDump';

export function cluster(
  name: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { '@type': 'type.googleapis.com/envoy.config.cluster.v3.Cluster', name, ...extra };
}

export function drMetadata(config: string): Record<string, unknown> {
  return { metadata: { filter_metadata: { istio: { config } } } };
}

export function handDump(): Record<string, unknown> {
  return {
    configs: [
      {
        '@type': BOOTSTRAP_TYPE,
        bootstrap: {
          node: {
            id: 'router~10.1.2.3~istio-ingressgateway-5d9c7.istio-system~istio-system.svc.cluster.local',
            cluster: 'istio-ingressgateway.istio-system',
            metadata: { ISTIO_VERSION: '1.22.1', NAME: 'ignored-when-id-has-it' },
          },
        },
      },
      {
        '@type': CLUSTERS_TYPE,
        version_info: '2024-01-01T00:00:00Z/9',
        static_clusters: [{ cluster: cluster('prometheus_stats', { type: 'STATIC' }) }],
        dynamic_active_clusters: [
          {
            version_info: 'v1',
            cluster: cluster('outbound|9080|v2|reviews.default.svc.cluster.local', {
              type: 'EDS',
              eds_cluster_config: { service_name: 'x' },
              ...drMetadata(
                '/apis/networking.istio.io/v1alpha3/namespaces/default/destination-rule/reviews',
              ),
            }),
          },
          {
            cluster: cluster('outbound|9080|v1|reviews.default.svc.cluster.local', {
              eds_cluster_config: {},
            }),
          },
          { cluster: cluster('inbound|8080||', { type: 'ORIGINAL_DST' }) },
          {
            cluster: cluster('outbound|443||aggregate.example.com', {
              cluster_type: { name: 'envoy.clusters.aggregate', typed_config: {} },
            }),
          },
          { cluster: cluster('BlackHoleCluster', { type: 'STATIC' }) },
        ],
        dynamic_warming_clusters: [
          { cluster: cluster('outbound|81||warming.default.svc.cluster.local') },
        ],
      },
    ],
  };
}

/** Recursively renames snake_case keys to camelCase, as protojson would print them. */
export function toCamel(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toCamel);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase()),
      toCamel(v),
    ]),
  );
}
