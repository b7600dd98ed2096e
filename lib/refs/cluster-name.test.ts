import { describe, expect, it } from 'vitest';
import { readFixture } from '../../test-support/fixtures';
import {
  clusterColumns,
  directionClass,
  formatClusterName,
  parseClusterName,
} from './cluster-name';

/** The cluster names of a config dump: each Cluster's name, each ClusterLoadAssignment's. */
function dumpClusterNames(file: string): string[] {
  const out = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (typeof v !== 'object' || v === null) return;
    const o = v as Record<string, unknown>;
    const type = typeof o['@type'] === 'string' ? o['@type'] : '';
    if (/\.Cluster$/.test(type) && typeof o.name === 'string') out.add(o.name);
    if (/\.ClusterLoadAssignment$/.test(type)) {
      const n = o.cluster_name ?? o.clusterName;
      if (typeof n === 'string') out.add(n);
    }
    Object.values(o).forEach(walk);
  };
  walk(JSON.parse(readFixture('config_dump', file)));
  return [...out].sort();
}

const DUMPS = [
  'eds_only_config_dump.json',
  'istio-details-v1_sidecar_config_dump_camelCase.json',
  'istio-echo-a_sidecar_config_dump.json',
  'istioctl-proxyconfig_all_types_config_dump.json',
];

/** `istioctl proxy-config clusters -o json` of a Istio 1.x proxy (/clusters?format=json). */
const STATUS_NAMES = (
  JSON.parse(readFixture('clusters', 'istioctl_clusters_format_json.json')) as {
    cluster_statuses: { name: string }[];
  }
).cluster_statuses.map((c) => c.name);

describe('cluster names of real proxies', () => {
  it('reads every service cluster of the dumps and writes it back the same', () => {
    const names = [...DUMPS.flatMap(dumpClusterNames), ...STATUS_NAMES];
    const service = names.filter((n) => /^(outbound|inbound)\|/.test(n));
    expect(service.length).toBeGreaterThan(100);
    for (const name of service) {
      const c = parseClusterName(name);
      expect(c?.direction, name).toBe(name.startsWith('outbound|') ? 'outbound' : 'inbound');
      expect(c?.port, name).toBeGreaterThan(0);
      if (!c?.direction || c.port === null) continue;
      expect(
        formatClusterName({
          direction: c.direction,
          port: c.port,
          subset: c.subset ?? undefined,
          fqdn: c.fqdn ?? undefined,
        }),
      ).toBe(name);
      const columns = clusterColumns(name);
      expect(columns, name).toEqual({
        istio: true,
        direction: c.direction,
        port: c.port,
        subset: c.subset ?? '',
        fqdn: c.fqdn ?? '',
      });
    }
  });

  it('reads the shapes each generation writes', () => {
    const all = new Set([...DUMPS.flatMap(dumpClusterNames), ...STATUS_NAMES]);
    const real = (name: string) => {
      expect(all.has(name), `${name} is in the fixtures`).toBe(true);
      return name;
    };
    // Istio 1.10 and later: an inbound cluster has no host
    expect(parseClusterName(real('inbound|9080||'))).toEqual({
      name: 'inbound|9080||',
      direction: 'inbound',
      port: 9080,
      subset: null,
      fqdn: null,
    });
    // before: the service port's name in the subset part, the service's host
    expect(parseClusterName(real('inbound|7070|grpc|a.apps-1-99281.svc.cluster.local'))).toEqual({
      name: 'inbound|7070|grpc|a.apps-1-99281.svc.cluster.local',
      direction: 'inbound',
      port: 7070,
      subset: 'grpc',
      fqdn: 'a.apps-1-99281.svc.cluster.local',
    });
    expect(parseClusterName(real('outbound|9080||reviews.default.svc.cluster.local'))).toEqual({
      name: 'outbound|9080||reviews.default.svc.cluster.local',
      direction: 'outbound',
      port: 9080,
      subset: null,
      fqdn: 'reviews.default.svc.cluster.local',
    });
    // a waypoint's VIP cluster is Istio's (istioctl lists its columns), not a service cluster
    const vip = real('inbound-vip|8000|http|httpbin.default.svc.cluster.local');
    expect(parseClusterName(vip)?.direction).toBeNull();
    expect(clusterColumns(vip)).toEqual({
      istio: true,
      direction: 'inbound-vip',
      port: 8000,
      subset: 'http',
      fqdn: 'httpbin.default.svc.cluster.local',
    });
  });

  it('takes bootstrap and control-plane clusters as plain names', () => {
    for (const name of [
      'BlackHoleCluster',
      'PassthroughCluster',
      'InboundPassthroughClusterIpv4',
      'xds-grpc',
      'sds-grpc',
      'agent',
      'prometheus_stats',
      'zipkin',
      'inbound_9092',
    ]) {
      expect(
        DUMPS.some((f) => dumpClusterNames(f).includes(name)) || STATUS_NAMES.includes(name),
        name,
      ).toBe(true);
      expect(parseClusterName(name), name).toEqual({
        name,
        direction: null,
        port: null,
        subset: null,
        fqdn: null,
      });
      expect(clusterColumns(name), name).toEqual({
        istio: false,
        direction: '',
        port: 0,
        subset: '',
        fqdn: name,
      });
    }
  });

  it('writes the forms istiod builds', () => {
    expect(
      formatClusterName({
        direction: 'outbound',
        port: 80,
        subset: 'v1',
        fqdn: 'reviews.default.svc.cluster.local',
      }),
    ).toBe('outbound|80|v1|reviews.default.svc.cluster.local');
    expect(
      formatClusterName({
        direction: 'outbound',
        port: 9080,
        fqdn: 'details.default.svc.cluster.local',
      }),
    ).toBe('outbound|9080||details.default.svc.cluster.local');
    expect(formatClusterName({ direction: 'inbound', port: 9080 })).toBe('inbound|9080||');
  });
});

describe('parseClusterName', () => {
  it('splits Istio cluster names', () => {
    expect(parseClusterName('outbound|8080|v1|payments.shop.svc.cluster.local')).toEqual({
      name: 'outbound|8080|v1|payments.shop.svc.cluster.local',
      direction: 'outbound',
      port: 8080,
      subset: 'v1',
      fqdn: 'payments.shop.svc.cluster.local',
    });
    expect(parseClusterName('inbound|9080||')).toMatchObject({
      direction: 'inbound',
      port: 9080,
      subset: null,
      fqdn: null,
    });
    expect(parseClusterName('outbound_.8000_._.httpbin.default.svc.cluster.local')).toMatchObject({
      direction: 'outbound',
      port: 8000,
      subset: null,
      fqdn: 'httpbin.default.svc.cluster.local',
    });
    expect(parseClusterName('PassthroughCluster')).toMatchObject({
      direction: null,
      port: null,
      fqdn: null,
    });
    expect(parseClusterName('-')).toBeNull();
  });
});

describe('clusterColumns', () => {
  it('parses Istio names in all their shapes', () => {
    expect(clusterColumns('outbound|80|v1|reviews.default.svc.cluster.local')).toEqual({
      istio: true,
      direction: 'outbound',
      port: 80,
      subset: 'v1',
      fqdn: 'reviews.default.svc.cluster.local',
    });
    expect(clusterColumns('inbound|9080||')).toMatchObject({ port: 9080, subset: '', fqdn: '' });
    expect(clusterColumns('inbound|9080||reviews.default.svc.cluster.local').fqdn).toBe(
      'reviews.default.svc.cluster.local',
    );
    expect(clusterColumns('inbound-vip|8000|http|httpbin.default.svc.cluster.local')).toMatchObject(
      {
        direction: 'inbound-vip',
        subset: 'http',
      },
    );
  });

  it('treats other names as plain, and malformed parts like istioctl does', () => {
    expect(clusterColumns('BlackHoleCluster')).toEqual({
      istio: false,
      direction: '',
      port: 0,
      subset: '',
      fqdn: 'BlackHoleCluster',
    });
    expect(clusterColumns('a|b|c').istio).toBe(false);
    expect(clusterColumns('outbound|http|v1|x.y').port).toBe(0);
    expect(clusterColumns('outbound|80|v1|x|y').fqdn).toBe('');
  });

  it('classifies directions', () => {
    expect(['inbound', 'inbound-vip', 'outbound', '-', ''].map(directionClass)).toEqual([
      'inbound',
      'inbound',
      'outbound',
      'other',
      'other',
    ]);
  });
});
