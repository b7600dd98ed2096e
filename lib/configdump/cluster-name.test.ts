import { describe, it, expect } from 'vitest';
import { directionClass, parseClusterName } from './cluster-name';
import { clusterType, destinationRule } from './cluster-fields';
import { tabulate } from './table';
import { cluster, drMetadata } from '../../tests/data/configdump/dumps';

describe('parseClusterName', () => {
  it('parses Istio names in all their shapes', () => {
    expect(parseClusterName('outbound|80|v1|reviews.default.svc.cluster.local')).toEqual({
      istio: true,
      direction: 'outbound',
      port: 80,
      subset: 'v1',
      fqdn: 'reviews.default.svc.cluster.local',
    });
    expect(parseClusterName('inbound|9080||')).toMatchObject({ port: 9080, subset: '', fqdn: '' });
    expect(parseClusterName('inbound|9080||reviews.default.svc.cluster.local').fqdn).toBe(
      'reviews.default.svc.cluster.local',
    );
    expect(
      parseClusterName('inbound-vip|8000|http|httpbin.default.svc.cluster.local'),
    ).toMatchObject({
      direction: 'inbound-vip',
      subset: 'http',
    });
  });

  it('treats other names as plain, and malformed parts like istioctl does', () => {
    expect(parseClusterName('BlackHoleCluster')).toEqual({
      istio: false,
      direction: '',
      port: 0,
      subset: '',
      fqdn: 'BlackHoleCluster',
    });
    expect(parseClusterName('a|b|c').istio).toBe(false);
    expect(parseClusterName('outbound|http|v1|x.y').port).toBe(0);
    expect(parseClusterName('outbound|80|v1|x|y').fqdn).toBe('');
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

describe('cluster TYPE and DESTINATION RULE columns', () => {
  it('reads the type from type, eds_cluster_config, cluster_type, or defaults to STATIC', () => {
    expect(clusterType(cluster('a', { type: 'STRICT_DNS' }))).toBe('STRICT_DNS');
    expect(clusterType(cluster('a', { type: 3 }))).toBe('EDS');
    expect(clusterType(cluster('a', { edsClusterConfig: {} }))).toBe('EDS');
    expect(clusterType(cluster('a', { clusterType: { name: 'envoy.clusters.aggregate' } }))).toBe(
      'envoy.clusters.aggregate',
    );
    expect(clusterType(cluster('a'))).toBe('STATIC');
  });

  it('renders DestinationRule config paths as NAME.NAMESPACE', () => {
    const dr = (p: string) => destinationRule(cluster('c', drMetadata(p)));
    expect(
      dr('/apis/networking.istio.io/v1alpha3/namespaces/bookinfo/destination-rule/reviews'),
    ).toBe('reviews.bookinfo');
    expect(dr('/apis/networking.istio.io/v1/namespaces/ns/destination-rule/x')).toBe('x.ns');
    expect(dr('/apis/networking/v1alpha3/namespaces/ns/destination-rule/x')).toBe('<unknown>');
    expect(dr('/apis/networking.istio.io/v1alpha3/namespaces/ns/destination-rule/x/extra')).toBe(
      '',
    );
    expect(destinationRule(cluster('c'))).toBe('');
    expect(
      destinationRule(cluster('c', { metadata: { filterMetadata: { istio: { services: [] } } } })),
    ).toBe('');
  });
});

describe('tabulate', () => {
  it('pads every column but the last to its widest cell plus 5, counting runes', () => {
    const out = tabulate([
      ['A', 'BB', 'C'],
      ['ééé', '', ''],
    ]);
    expect(out).toBe(`A${' '.repeat(7)}BB${' '.repeat(5)}C\nééé${' '.repeat(5 + 7)}\n`);
  });
});
