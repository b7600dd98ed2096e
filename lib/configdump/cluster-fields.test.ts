import { describe, it, expect } from 'vitest';
import { clusterType, destinationRule } from './cluster-fields';
import { tabulate } from './table';
import { cluster, drMetadata } from '../../tests/data/configdump/dumps';

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
